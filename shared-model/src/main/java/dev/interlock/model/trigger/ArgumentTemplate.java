package dev.interlock.model.trigger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.secret.CredentialReference;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one template language of pipeline documents. In a trigger's URL, body, headers and job arguments (and an HTTP
 * evaluator's headers):
 * <ul>
 *   <li>{@code ${date}}, {@code ${hour}}, {@code ${scheduleId}}, {@code ${pipelineId}}, {@code ${runId}} — the values of
 *       the execution (names case-insensitive, so the Go spelling {@code ${scheduleID}} works);</li>
 *   <li>{@code ${INTERLOCK_NAME}} (also {@code $INTERLOCK_NAME}), {@code ${secret:name}}, {@code ${secret:name#key}},
 *       {@code ${ssm:/name}} — credentials, resolved by the function that sends the request, only where a credential
 *       may go (headers and body);</li>
 *   <li>{@code $${} — a literal {@code ${} (for text meant for the job itself, e.g. Spark's {@code $${var}}).</li>
 * </ul>
 * Anything else written as {@code ${…}} is an error: registration refuses it with its path, and a function that meets
 * one (in a pipeline registered before this rule) refuses to send it rather than sending it literally.
 */
public final class ArgumentTemplate {

    /** The execution values a template may name, by lower-case name. */
    public static final List<String> RUN_VALUES = List.of("date", "hour", "scheduleId", "pipelineId", "runId");

    private static final Pattern UNBRACED_VARIABLE = Pattern.compile("\\$(INTERLOCK_[A-Za-z0-9_]+)");

    private ArgumentTemplate() {}

    /** One piece of a parsed template. */
    public sealed interface Part {
        /** Text sent as it is ({@code $${} already turned into {@code ${}). */
        record Literal(String text) implements Part {}

        /** An execution value; {@code name} is one of {@link #RUN_VALUES}. */
        record RunValue(String name, String written) implements Part {}

        /** A credential, resolved at call time. */
        record Credential(CredentialReference reference, String written) implements Part {}

        /** Something written as a placeholder that is none; {@code problem} says what and how to fix it. */
        record Invalid(String written, String problem) implements Part {}
    }

    /** Resolves credential references while rendering; may fail with its own checked exception. */
    @FunctionalInterface
    public interface Credentials<E extends Exception> {
        String valueOf(CredentialReference reference) throws E;
    }

    /** A template that cannot be rendered here: an invalid placeholder, or a credential where none may go. */
    public static final class TemplateException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        public TemplateException(String message) {
            super(message);
        }
    }

    /** The parts of a template, in order; never throws (problems are {@link Part.Invalid} parts). */
    public static List<Part> parse(String template) {
        List<Part> parts = new ArrayList<>();
        if (template == null || template.isEmpty()) {
            return parts;
        }
        StringBuilder literal = new StringBuilder();
        int i = 0;
        int n = template.length();
        while (i < n) {
            char c = template.charAt(i);
            if (c != '$') {
                literal.append(c);
                i++;
                continue;
            }
            if (template.startsWith("$${", i)) {
                literal.append("${");
                i += 3;
                continue;
            }
            if (template.startsWith("${", i)) {
                int close = template.indexOf('}', i + 2);
                flush(literal, parts);
                if (close < 0) {
                    parts.add(new Part.Invalid(
                            template.substring(i),
                            "'" + template.substring(i)
                                    + "' opens a placeholder that is never closed (write $${ for a literal ${)"));
                    return parts;
                }
                parts.add(placeholder(template.substring(i + 2, close), template.substring(i, close + 1)));
                i = close + 1;
                continue;
            }
            Matcher unbraced = UNBRACED_VARIABLE.matcher(template).region(i, n);
            if (unbraced.lookingAt()) {
                flush(literal, parts);
                parts.add(new Part.Credential(
                        new CredentialReference.EnvironmentVariable(unbraced.group(1)), unbraced.group()));
                i = unbraced.end();
                continue;
            }
            literal.append(c);
            i++;
        }
        flush(literal, parts);
        return parts;
    }

    private static void flush(StringBuilder literal, List<Part> parts) {
        if (!literal.isEmpty()) {
            parts.add(new Part.Literal(literal.toString()));
            literal.setLength(0);
        }
    }

    private static Part placeholder(String inner, String written) {
        for (String name : RUN_VALUES) {
            if (name.equalsIgnoreCase(inner)) {
                return new Part.RunValue(name, written);
            }
        }
        try {
            return CredentialReference.parse(inner)
                    .<Part>map(reference -> new Part.Credential(reference, written))
                    .orElseGet(() -> new Part.Invalid(
                            written,
                            "unknown placeholder " + written + "; known: "
                                    + String.join(
                                            ", ",
                                            RUN_VALUES.stream()
                                                    .map(v -> "${" + v + "}")
                                                    .toList())
                                    + ", and in headers and bodies ${INTERLOCK_…}, ${secret:…}, ${ssm:…} (write $${…} to send "
                                    + written.substring(1) + " literally)"));
        } catch (IllegalArgumentException e) {
            return new Part.Invalid(written, written + ": " + e.getMessage());
        }
    }

    /**
     * Renders a template.
     *
     * @param credentials resolves credential references; {@code null} where no credential may go
     * @throws TemplateException for an invalid placeholder, a credential where none may go, or {@code ${runId}} when
     *                           there is no run
     * @throws E                 when a credential cannot be resolved
     */
    public static <E extends Exception> String render(
            String template, TemplateValues values, Credentials<E> credentials) throws E {
        if (template == null || template.indexOf('$') < 0) {
            return template;
        }
        StringBuilder out = new StringBuilder(template.length());
        for (Part part : parse(template)) {
            switch (part) {
                case Part.Literal l -> out.append(l.text());
                case Part.RunValue v -> out.append(values.valueOf(v.name()));
                case Part.Credential c -> {
                    if (credentials == null) {
                        throw new TemplateException(
                                c.written() + ": credentials may only be sent in headers and bodies");
                    }
                    out.append(credentials.valueOf(c.reference()));
                }
                case Part.Invalid invalid -> throw new TemplateException(invalid.problem());
            }
        }
        return out.toString();
    }

    /**
     * Expands one template that may hold only execution values (job arguments, URLs).
     *
     * @throws TemplateException when it holds anything else
     */
    public static String expand(String template, TemplateValues values) {
        return ArgumentTemplate.<RuntimeException>render(template, values, null);
    }

    /**
     * The trigger with the execution values expanded in every field that is sent to the job as data — {@code arguments}
     * of every type, EMR Serverless {@code entryPointArguments} and {@code sparkSubmitParameters}, Databricks
     * {@code notebookParams}, Airflow {@code conf} and Lambda {@code payload} strings. URLs,
     * headers and bodies are left to the HTTP layer, which renders them once, credentials included.
     *
     * @throws TemplateException naming the first field that cannot be expanded
     */
    public static TriggerConfig expand(TriggerConfig trigger, TemplateValues values) {
        return switch (trigger) {
            case GlueTrigger t ->
                new GlueTrigger(t.jobName(), expand(t.arguments(), values), t.errorLogCheck(), t.errorLogPattern());
            case EmrTrigger t -> new EmrTrigger(t.clusterId(), t.stepName(), t.jar(), expand(t.arguments(), values));
            case EmrServerlessTrigger t ->
                new EmrServerlessTrigger(
                        t.applicationId(),
                        t.jobName(),
                        t.executionRoleArn(),
                        t.entryPoint(),
                        t.entryPointArguments().stream()
                                .map(a -> expand(a, values))
                                .toList(),
                        expand(t.sparkSubmitParameters(), values),
                        expand(t.arguments(), values));
            case StepFunctionTrigger t -> new StepFunctionTrigger(t.stateMachineArn(), expand(t.arguments(), values));
            case DatabricksTrigger t ->
                new DatabricksTrigger(
                        t.workspaceUrl(),
                        t.jobName(),
                        t.jobId(),
                        expand(t.notebookParams(), values),
                        t.headers(),
                        t.timeoutSeconds());
            case AirflowTrigger t ->
                new AirflowTrigger(
                        t.url(),
                        t.dagId(),
                        t.headers(),
                        t.body(),
                        expandTree(t.conf(), values),
                        t.timeoutSeconds(),
                        t.failedTaskCheck());
            case LambdaTrigger t ->
                new LambdaTrigger(t.functionName(), t.payload() == null ? null : expand(t.payload(), values));
            case HttpTrigger t -> t;
        };
    }

    private static Map<String, String> expand(Map<String, String> templates, TemplateValues values) {
        Map<String, String> expanded = new LinkedHashMap<>();
        templates.forEach((key, value) -> expanded.put(key, expand(value, values)));
        return expanded;
    }

    private static Map<String, Object> expandTree(Map<String, Object> tree, TemplateValues values) {
        Map<String, Object> expanded = new LinkedHashMap<>();
        tree.forEach((key, value) -> expanded.put(key, expandValue(value, values)));
        return expanded;
    }

    private static Object expandValue(Object value, TemplateValues values) {
        if (value instanceof String s) {
            return expand(s, values);
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> expanded = new LinkedHashMap<>();
            map.forEach((k, v) -> expanded.put(String.valueOf(k), expandValue(v, values)));
            return expanded;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(v -> expandValue(v, values)).toList();
        }
        return value;
    }

    private static JsonNode expand(JsonNode node, TemplateValues values) {
        if (node.isTextual()) {
            return JsonNodeFactory.instance.textNode(expand(node.asText(), values));
        }
        if (node.isObject()) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                copy.set(field.getKey(), expand(field.getValue(), values));
            }
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            node.forEach(element -> copy.add(expand(element, values)));
            return copy;
        }
        return node;
    }
}
