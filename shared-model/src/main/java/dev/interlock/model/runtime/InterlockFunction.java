package dev.interlock.model.runtime;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * The six deployable functions: their Maven module, handler and deployable jar, named once for the CDK stack and
 * the local runtime.
 */
public enum InterlockFunction {
    STREAM_ROUTER("stream-router", "dev.interlock.streamrouter.StreamRouterHandler"),
    ORCHESTRATOR("orchestrator", "dev.interlock.orchestrator.OrchestratorHandler"),
    EVALUATOR("evaluator", "dev.interlock.evaluator.EvaluatorHandler"),
    TRIGGER("trigger", "dev.interlock.trigger.TriggerHandler"),
    RUN_CHECKER("run-checker", "dev.interlock.runchecker.RunCheckerHandler"),
    API("api", "dev.interlock.api.ApiHandler");

    private final String moduleName;
    private final String handlerClass;

    InterlockFunction(String moduleName, String handlerClass) {
        this.moduleName = moduleName;
        this.handlerClass = handlerClass;
    }

    /** The Maven module under {@code lambdas/} and the short function name ({@code orchestrator}, …). */
    public String moduleName() {
        return moduleName;
    }

    /** Fully qualified handler class. */
    public String handlerClass() {
        return handlerClass;
    }

    /** The Lambda handler string ({@code class::handleRequest}). */
    public String handler() {
        return handlerClass + "::handleRequest";
    }

    /**
     * The most a deployable jar may weigh: 15 MB (decimal), a goal well under Lambda's 50 MB zip limit that keeps each
     * jar to what its function runs. The build's jar tests and the cold-start benchmark hold every jar to it.
     */
    public static final long MAX_DEPLOYABLE_JAR_BYTES = 15_000_000L;

    /** The shaded deployable jar, relative to the repository root. */
    public Path deployableJar(Path repositoryRoot) {
        return repositoryRoot
                .resolve("lambdas")
                .resolve(moduleName)
                .resolve("target")
                .resolve(moduleName + "-lambda.jar");
    }

    /**
     * Whether the function evaluates traits with the evaluators' own code ({@code TraitEvaluation}): the evaluator for
     * readiness, the orchestrator for post-run checks (docs/post-run-checks.md). Each such function gets what an
     * evaluator call needs — {@code EVALUATOR_BASE_URL}, the credential settings ({@link EnvVar}), the invoke of the
     * {@code lambda:} evaluators and the secret reads (infra-cdk's TraitEvaluatorAccess) — the same for both.
     */
    public boolean evaluatesTraits() {
        return this == EVALUATOR || this == ORCHESTRATOR;
    }

    /** The functions that {@linkplain #evaluatesTraits() evaluate traits}, and {@code others}. */
    public static Set<InterlockFunction> traitEvaluatorsAnd(InterlockFunction... others) {
        EnumSet<InterlockFunction> functions = EnumSet.noneOf(InterlockFunction.class);
        for (InterlockFunction f : values()) {
            if (f.evaluatesTraits()) {
                functions.add(f);
            }
        }
        functions.addAll(Arrays.asList(others));
        return functions;
    }

    /** Resolve by module name, e.g. {@code run-checker}. */
    public static InterlockFunction fromModuleName(String name) {
        for (InterlockFunction f : values()) {
            if (f.moduleName.equals(name)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown function '" + name
                + "'; expected one of stream-router, orchestrator, evaluator, trigger, run-checker, api");
    }
}
