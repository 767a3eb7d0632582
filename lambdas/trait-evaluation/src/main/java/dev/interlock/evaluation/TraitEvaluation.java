package dev.interlock.evaluation;

import dev.interlock.log.LogContext;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.trait.EvaluatorLocator;
import dev.interlock.model.trait.ResolvedTrait;
import dev.interlock.model.trait.TraitResult;
import dev.interlock.model.trait.TraitStatus;
import dev.interlock.model.trait.TraitVerdict;
import dev.interlock.model.trigger.TemplateValues;
import dev.interlock.store.Provider;
import dev.interlock.wiring.Deps;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Evaluates one resolved trait (statemachine/CONTRACT.md §5): dispatches on its locator and stamps the verdict with the
 * trait's TTL. It writes nothing: the machine hands every verdict of a round to the orchestrator, which records the
 * round (results and events) in one request. Evaluator trouble is an ERROR result, never thrown.
 */
public final class TraitEvaluation {

    /** The evaluator timeout when a trait sets none (docs/pipeline-reference.md). */
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    /** Time kept back from the invocation's remaining time to answer the machine after the evaluator answered. */
    static final Duration STORE_RESERVE = Duration.ofSeconds(3);
    /** The shortest evaluator call worth making. */
    static final Duration MIN_TIMEOUT = Duration.ofSeconds(1);

    private final Provider provider;
    private final HttpEvaluator http;
    private final LambdaEvaluator lambda;
    private final BuiltinEvaluators builtins;
    private final Clock clock;
    private final StructuredLog log;

    public TraitEvaluation(Provider provider, HttpEvaluator http, LambdaEvaluator lambda, Clock clock) {
        this(provider, http, lambda, clock, new StructuredLog("evaluator", System.out, clock));
    }

    public TraitEvaluation(
            Provider provider, HttpEvaluator http, LambdaEvaluator lambda, Clock clock, StructuredLog log) {
        this.provider = provider;
        this.http = http;
        this.lambda = lambda;
        this.builtins = new BuiltinEvaluators(provider, clock);
        this.clock = clock;
        this.log = log;
    }

    /** Over the function's Deps: what the evaluator Lambda and the orchestrator's post-run checks evaluate with. */
    public static TraitEvaluation from(Deps deps) {
        return new TraitEvaluation(
                deps.provider(),
                new HttpEvaluator(
                        deps.outboundHttp(),
                        deps.environment().get(EnvVar.EVALUATOR_BASE_URL),
                        deps.outboundTemplates()),
                new LambdaEvaluator(deps.clients()::lambda),
                deps.clock(),
                deps.log("evaluator"));
    }

    /** One trait's verdict (a post-run check's, docs/post-run-checks.md); evaluator trouble is an ERROR verdict. */
    public TraitVerdict evaluateVerdict(ResolvedTrait trait) {
        return evaluate(trait).verdict();
    }

    /**
     * Evaluates one trait.
     *
     * @throws IllegalArgumentException when the input lacks the fields that key the result (names every one)
     */
    public TraitResult evaluate(ResolvedTrait trait) {
        return evaluate(trait, null);
    }

    /**
     * Evaluates one trait within the invocation's remaining time: the evaluator gets at most that time less
     * {@link #STORE_RESERVE}, so a slow evaluator becomes an answered EVALUATOR_TIMEOUT instead of a Lambda timeout that
     * loses the result (the Go original's trait timeout ≥ Lambda timeout quirk).
     *
     * @param remaining the invocation's remaining time, or null when unbounded
     */
    public TraitResult evaluate(ResolvedTrait trait, Duration remaining) {
        requireKeys(trait);
        LogContext ctx = LogContext.of(
                trait.pipelineId(), trait.scheduleId(), trait.date().toString());
        Verdict verdict = judge(trait, timeout(trait, remaining));
        Instant now = clock.instant();
        Instant expiresAt = trait.ttl() > 0 ? now.plusSeconds(trait.ttl()) : null;
        TraitResult result = TraitResult.of(
                trait.pipelineId(),
                trait.scheduleId(),
                trait.date(),
                new TraitVerdict(
                        trait.traitType(),
                        verdict.status(),
                        verdict.value(),
                        verdict.reason(),
                        verdict.failureCategory(),
                        trait.required()),
                now,
                expiresAt);
        if (verdict.status() == TraitStatus.ERROR) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("traitType", trait.traitType());
            fields.put("failureCategory", verdict.failureCategory().wireName());
            // The reason names the evaluator with its URL redacted; the raw locator may carry a token in its query.
            fields.put("reason", verdict.reason());
            log.warn(ctx, "trait evaluation error", fields);
        } else {
            log.info(
                    ctx,
                    "trait evaluated",
                    Map.of(
                            "traitType",
                            trait.traitType(),
                            "status",
                            verdict.status().wireName()));
        }
        return result;
    }

    private static Duration timeout(ResolvedTrait trait, Duration remaining) {
        Duration timeout = trait.timeout() > 0 ? Duration.ofSeconds(trait.timeout()) : DEFAULT_TIMEOUT;
        if (remaining != null) {
            Duration available = remaining.minus(STORE_RESERVE);
            if (available.compareTo(MIN_TIMEOUT) < 0) {
                available = MIN_TIMEOUT;
            }
            if (available.compareTo(timeout) < 0) {
                timeout = available;
            }
        }
        return timeout;
    }

    private Verdict judge(ResolvedTrait trait, Duration timeout) {
        EvaluatorLocator locator;
        try {
            locator = EvaluatorLocator.parse(trait.evaluator());
        } catch (IllegalArgumentException e) {
            // Unknown builtin, empty or malformed locator: the config is wrong, a retry cannot help.
            return Verdict.error(e.getMessage(), FailureCategory.PERMANENT);
        }
        EvaluatorInput input = new EvaluatorInput(trait.pipelineId(), trait.traitType(), trait.config());
        HttpEvaluator.Request request = new HttpEvaluator.Request(
                trait.headers(), new TemplateValues(trait.pipelineId(), trait.scheduleId(), trait.date(), null));
        return switch (locator) {
            case EvaluatorLocator.Builtin b -> builtins.evaluate(b.evaluator(), trait);
            case EvaluatorLocator.LambdaFunction f -> lambda.evaluate(f.function(), input, timeout);
            case EvaluatorLocator.Http h -> http.evaluate(h.url(), input, timeout, request);
            case EvaluatorLocator.RelativePath p -> http.evaluateRelative(p.path(), input, timeout, request);
        };
    }

    private static void requireKeys(ResolvedTrait trait) {
        List<String> missing = new ArrayList<>();
        if (trait.pipelineId() == null || trait.pipelineId().isBlank()) {
            missing.add("pipelineId");
        }
        if (trait.scheduleId() == null || trait.scheduleId().isBlank()) {
            missing.add("scheduleId");
        }
        if (trait.date() == null) {
            missing.add("date");
        }
        if (trait.traitType() == null || trait.traitType().isBlank()) {
            missing.add("traitType");
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("evaluator input is missing " + String.join(", ", missing));
        }
    }
}
