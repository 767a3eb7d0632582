package dev.interlock.infra.conformance;

import dev.interlock.model.runtime.InterlockFunction;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Judges recorded AWS requests against the functions' roles in a synthesized CloudFormation template, the way IAM
 * judges identity policies: a request is allowed when an {@code Allow} statement of the function's role matches its
 * action (with {@code *}/{@code ?} wildcards, case-insensitively), its resource (template expressions resolved, see
 * {@link Intrinsics}) and its conditions ({@code StringEquals}/{@code StringLike} on the keys the request sets), and no
 * {@code Deny} statement matches. It also lists every grant no recorded request used.
 */
public final class IamConformanceCheck {

    /**
     * Actions the Lambda service, not the function's code, performs with the function's role: writing its logs and
     * traces, and reading the table stream and reaching the failure destination for the event-source mapping.
     */
    static final Set<String> USED_BY_THE_LAMBDA_SERVICE = Set.of(
            "logs:CreateLogStream",
            "logs:PutLogEvents",
            "xray:PutTraceSegments",
            "xray:PutTelemetryRecords",
            "dynamodb:DescribeStream",
            "dynamodb:GetRecords",
            "dynamodb:GetShardIterator",
            "dynamodb:ListStreams",
            "sqs:SendMessage",
            "sqs:GetQueueAttributes",
            "sqs:GetQueueUrl");

    private static final Set<String> STRING_CONDITIONS = Set.of("StringEquals", "StringLike", "ArnEquals", "ArnLike");

    private final Map<String, Map<String, Object>> resources;
    private final Map<InterlockFunction, FunctionRole> roles = new LinkedHashMap<>();

    /** A violation: a request the function's role does not allow, and why. */
    public record Violation(RecordedRequest request, String why) {
        @Override
        public String toString() {
            return request.describe() + " (" + request.operation() + "): " + why;
        }
    }

    /** One action on one resource expression, granted by a statement of a function's role. */
    public record Grant(InterlockFunction function, String statement, String action, String resource) {
        @Override
        public String toString() {
            return function.moduleName() + ": " + action + " on " + resource + " (" + statement + ")";
        }
    }

    /** The verdict on a set of recorded requests. */
    public record Result(
            int requests,
            List<Violation> violations,
            List<Grant> unused,
            List<Grant> usedByTheService,
            Map<InterlockFunction, Integer> requestsPerFunction) {

        public boolean conforms() {
            return violations.isEmpty();
        }

        /** The human report: violations first, then unused grants, then coverage. */
        public String report() {
            StringBuilder out = new StringBuilder();
            out.append("IAM conformance: ").append(requests).append(" distinct recorded AWS requests\n");
            out.append("\nNot allowed by the function's role (")
                    .append(violations.size())
                    .append("):\n");
            violations.forEach(v -> out.append("  ").append(v).append('\n'));
            out.append("\nGranted but used by no recorded request (")
                    .append(unused.size())
                    .append("):\n");
            unused.forEach(g -> out.append("  ").append(g).append('\n'));
            out.append("\nGranted for the Lambda service's own use of the role (logs, traces, stream mapping) (")
                    .append(usedByTheService.size())
                    .append("):\n");
            usedByTheService.forEach(g -> out.append("  ").append(g).append('\n'));
            out.append("\nDistinct recorded requests per function:\n");
            for (InterlockFunction f : InterlockFunction.values()) {
                out.append("  ")
                        .append(f.moduleName())
                        .append(": ")
                        .append(requestsPerFunction.getOrDefault(f, 0))
                        .append('\n');
            }
            return out.toString();
        }
    }

    private record Statement(
            String id,
            boolean allow,
            List<String> actions,
            List<Object> resources,
            Map<String, Object> conditions,
            String unsupported) {}

    /** Every function's environment variables with the template expression each names (the first one seen). */
    private final Map<String, Object> stackEnvironment = new LinkedHashMap<>();

    private record FunctionRole(String roleId, Map<String, Object> environment, List<Statement> statements) {}

    @SuppressWarnings("unchecked")
    public IamConformanceCheck(Map<String, Object> template) {
        this.resources = (Map<String, Map<String, Object>>) template.get("Resources");
        for (InterlockFunction f : InterlockFunction.values()) {
            findFunction(f).ifPresent(fn -> {
                Map<String, Object> properties = map(fn.get("Properties"));
                String roleId = String.valueOf(
                        list(map(properties.get("Role")).get("Fn::GetAtt")).getFirst());
                Map<String, Object> environment =
                        map(map(properties.get("Environment")).get("Variables"));
                roles.put(f, new FunctionRole(roleId, environment, statementsOf(roleId)));
            });
        }
        roles.values().forEach(role -> role.environment().forEach(stackEnvironment::putIfAbsent));
    }

    /** Evaluates every request and lists the grants none of them used. */
    public Result check(Collection<RecordedRequest> requests) {
        List<Violation> violations = new ArrayList<>();
        Set<Grant> used = new LinkedHashSet<>();
        Map<InterlockFunction, Integer> perFunction = new TreeMap<>();
        for (RecordedRequest request : new LinkedHashSet<>(requests)) {
            Optional<InterlockFunction> function = function(request.function());
            if (function.isEmpty() || !roles.containsKey(function.get())) {
                violations.add(new Violation(request, "no function '" + request.function() + "' in the template"));
                continue;
            }
            perFunction.merge(function.get(), 1, Integer::sum);
            FunctionRole role = roles.get(function.get());
            judge(function.get(), role, request).ifPresent(violations::add);
            used.addAll(grantsUsedBy(function.get(), role, request));
        }
        List<Grant> unused = new ArrayList<>();
        List<Grant> service = new ArrayList<>();
        roles.forEach((f, role) -> {
            for (Grant g : grantsOf(f, role)) {
                if (used.contains(g)) {
                    continue;
                }
                (USED_BY_THE_LAMBDA_SERVICE.contains(g.action()) ? service : unused).add(g);
            }
        });
        return new Result(new LinkedHashSet<>(requests).size(), violations, unused, service, perFunction);
    }

    private Optional<Violation> judge(InterlockFunction function, FunctionRole role, RecordedRequest request) {
        if (request.resource() == null) {
            return Optional.of(new Violation(
                    request,
                    "the recorder cannot name the resource of " + request.action()
                            + ": teach IamRequests (lambdas/aws-recorder) which ARN it acts on"));
        }
        Intrinsics intrinsics = intrinsics(role, request);
        List<Statement> allows = new ArrayList<>();
        for (Statement s : role.statements()) {
            if (s.unsupported() == null
                    && actionMatches(s, request.action())
                    && resourceMatches(s, request, intrinsics)
                    && conditionsHold(s, request)) {
                if (!s.allow()) {
                    return Optional.of(new Violation(request, "denied by statement " + s.id()));
                }
                allows.add(s);
            }
        }
        if (!allows.isEmpty()) {
            return Optional.empty();
        }
        List<String> elsewhere = new ArrayList<>();
        for (Statement s : role.statements()) {
            if (s.allow() && actionMatches(s, request.action())) {
                s.resources()
                        .forEach(r -> elsewhere.add(intrinsics.resolve(r).orElse(Intrinsics.render(r))
                                + (s.conditions().isEmpty() ? "" : " with conditions " + s.conditions())
                                + (s.unsupported() == null ? "" : " (" + s.unsupported() + ")")));
            }
        }
        return Optional.of(new Violation(
                request,
                elsewhere.isEmpty()
                        ? "role " + role.roleId() + " of " + function.moduleName() + " grants no " + request.action()
                        : "role " + role.roleId() + " grants " + request.action() + " only on " + elsewhere));
    }

    private Set<Grant> grantsUsedBy(InterlockFunction function, FunctionRole role, RecordedRequest request) {
        Set<Grant> used = new LinkedHashSet<>();
        if (request.resource() == null) {
            return used;
        }
        Intrinsics intrinsics = intrinsics(role, request);
        for (Statement s : role.statements()) {
            if (!s.allow() || s.unsupported() != null || !conditionsHold(s, request)) {
                continue;
            }
            for (String action : s.actions()) {
                if (!glob(action.toLowerCase(Locale.ROOT), request.action().toLowerCase(Locale.ROOT))) {
                    continue;
                }
                for (Object resource : s.resources()) {
                    if (resourceMatches(intrinsics.resolve(resource), request)) {
                        used.add(new Grant(function, s.id(), action, Intrinsics.render(resource)));
                    }
                }
            }
        }
        return used;
    }

    private List<Grant> grantsOf(InterlockFunction function, FunctionRole role) {
        List<Grant> grants = new ArrayList<>();
        for (Statement s : role.statements()) {
            if (s.allow()) {
                for (String action : s.actions()) {
                    for (Object resource : s.resources()) {
                        grants.add(new Grant(function, s.id(), action, Intrinsics.render(resource)));
                    }
                }
            }
        }
        return grants;
    }

    /**
     * The template resources this request's function names through its environment: the function saw
     * {@code TABLE_NAME=interlock} and its template environment says {@code TABLE_NAME: {Ref: Table}}, so the table's
     * {@code Ref} is {@code interlock} for this request. A resource the function's own environment does not name is
     * known by what another function's environment calls it, with the value this request's deployment gave that
     * variable: the orchestrator's grant on the state machine's executions (it is given no STATE_MACHINE_ARN, which
     * would make the stack a cycle) resolves through the API's {@code STATE_MACHINE_ARN: {Ref: PipelineStateMachine}}.
     */
    private Intrinsics intrinsics(FunctionRole role, RecordedRequest request) {
        Map<String, String> refs = new HashMap<>();
        Map<String, String> attributes = new HashMap<>();
        Map<String, Object> names = new LinkedHashMap<>(stackEnvironment);
        names.putAll(role.environment());
        names.forEach((variable, expression) -> {
            String seen = request.configuration().get(variable);
            if (seen == null || !(expression instanceof Map<?, ?> e) || e.size() != 1) {
                return;
            }
            if (e.get("Ref") != null) {
                refs.put(String.valueOf(e.get("Ref")), seen);
            } else if (e.get("Fn::GetAtt") instanceof List<?> att && att.size() == 2) {
                attributes.put(att.get(0) + "." + att.get(1), seen);
            }
        });
        return new Intrinsics(resources, refs, attributes, "aws", request.region(), request.account());
    }

    private static boolean actionMatches(Statement s, String action) {
        String a = action.toLowerCase(Locale.ROOT);
        return s.actions().stream().anyMatch(p -> glob(p.toLowerCase(Locale.ROOT), a));
    }

    private static boolean resourceMatches(Statement s, RecordedRequest request, Intrinsics intrinsics) {
        return s.resources().stream()
                .anyMatch(r -> resourceMatches(intrinsics.resolve(r), request)
                        || (request.resourceIsPattern()
                                && intrinsics.resolve(r).isEmpty()
                                && intrinsics
                                        .shape(r)
                                        .map(shape -> glob(request.resource(), shape))
                                        .orElse(false)));
    }

    /**
     * A request that names its resource only as a pattern (a task token's state machine) matches a grant that could
     * cover some resource of that shape.
     */
    private static boolean resourceMatches(Optional<String> grant, RecordedRequest request) {
        if (grant.isEmpty()) {
            return false;
        }
        return glob(grant.get(), request.resource())
                || (request.resourceIsPattern() && glob(request.resource(), grant.get()));
    }

    private static boolean conditionsHold(Statement s, RecordedRequest request) {
        for (Map.Entry<String, Object> operator : s.conditions().entrySet()) {
            boolean like = operator.getKey().endsWith("Like");
            for (Map.Entry<String, Object> key : map(operator.getValue()).entrySet()) {
                String actual = request.context().get(key.getKey());
                if (actual == null) {
                    return false;
                }
                boolean any = list(key.getValue()).stream()
                        .map(String::valueOf)
                        .anyMatch(expected -> like ? glob(expected, actual) : expected.equals(actual));
                if (!any) {
                    return false;
                }
            }
        }
        return true;
    }

    /** IAM's action matching: case-insensitive, with {@link #glob}'s wildcards (the deployer's policy test uses it too). */
    public static boolean actionMatches(String pattern, String action) {
        return glob(pattern.toLowerCase(Locale.ROOT), action.toLowerCase(Locale.ROOT));
    }

    /** IAM's wildcards: {@code *} any run of characters, {@code ?} one character; everything else literal. */
    static boolean glob(String pattern, String value) {
        StringBuilder regex = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            switch (c) {
                case '*' -> regex.append(".*");
                case '?' -> regex.append('.');
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL).matcher(value).matches();
    }

    private Optional<Map<String, Object>> findFunction(InterlockFunction f) {
        return resources.values().stream()
                .filter(r -> "AWS::Lambda::Function".equals(r.get("Type")))
                .filter(r -> f.handler().equals(map(r.get("Properties")).get("Handler")))
                .findFirst();
    }

    /** Statements of the identity policies attached to the role: its own, and inline and managed policy resources. */
    private List<Statement> statementsOf(String roleId) {
        List<Statement> statements = new ArrayList<>();
        Map<String, Object> role = map(resources.get(roleId));
        Map<String, Object> roleProperties = map(role.get("Properties"));
        for (Object policy : list(roleProperties.get("Policies"))) {
            statements.addAll(parse(
                    roleId + "/" + map(policy).get("PolicyName"),
                    map(map(policy).get("PolicyDocument"))));
        }
        if (!list(roleProperties.get("ManagedPolicyArns")).isEmpty()) {
            statements.add(new Statement(
                    roleId + "/ManagedPolicyArns",
                    true,
                    List.of(),
                    List.of(),
                    Map.of(),
                    "managed policies " + roleProperties.get("ManagedPolicyArns") + " are not in the template"));
        }
        resources.forEach((id, resource) -> {
            Object type = resource.get("Type");
            if ("AWS::IAM::Policy".equals(type) || "AWS::IAM::ManagedPolicy".equals(type)) {
                Map<String, Object> properties = map(resource.get("Properties"));
                if (list(properties.get("Roles")).contains(Map.of("Ref", roleId))) {
                    statements.addAll(parse(id, map(properties.get("PolicyDocument"))));
                }
            }
        });
        return statements;
    }

    private static List<Statement> parse(String policyId, Map<String, Object> document) {
        List<Statement> statements = new ArrayList<>();
        int n = 0;
        for (Object raw : list(document.get("Statement"))) {
            Map<String, Object> s = map(raw);
            String id = policyId + "/" + (s.get("Sid") != null ? s.get("Sid") : "#" + n);
            n++;
            String unsupported = s.containsKey("NotAction")
                    ? "NotAction is not evaluated"
                    : s.containsKey("NotResource") ? "NotResource is not evaluated" : null;
            Map<String, Object> conditions = map(s.get("Condition"));
            for (String operator : conditions.keySet()) {
                if (!STRING_CONDITIONS.contains(operator)) {
                    unsupported = "condition operator " + operator + " is not evaluated";
                }
            }
            statements.add(new Statement(
                    id,
                    "Allow".equals(s.get("Effect")),
                    list(s.get("Action")).stream().map(String::valueOf).toList(),
                    list(s.get("Resource")),
                    conditions,
                    unsupported));
        }
        return statements;
    }

    private static Optional<InterlockFunction> function(String name) {
        try {
            return Optional.of(InterlockFunction.fromModuleName(name));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object value) {
        if (value == null) {
            return List.of();
        }
        return value instanceof List<?> l ? (List<Object>) l : List.of(value);
    }
}
