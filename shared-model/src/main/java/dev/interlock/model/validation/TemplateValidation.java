package dev.interlock.model.validation;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.archetype.TraitDefinition;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.json.JsonPath;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.net.HostLiteral;
import dev.interlock.model.net.NeverAllowedAddresses;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ScheduleConfig;
import dev.interlock.model.pipeline.TraitConfig;
import dev.interlock.model.secret.OutboundPolicy;
import dev.interlock.model.trait.EvaluatorLocator;
import dev.interlock.model.trigger.AirflowTrigger;
import dev.interlock.model.trigger.ArgumentTemplate;
import dev.interlock.model.trigger.ArgumentTemplate.Part;
import dev.interlock.model.trigger.DatabricksTrigger;
import dev.interlock.model.trigger.EmrServerlessTrigger;
import dev.interlock.model.trigger.EmrTrigger;
import dev.interlock.model.trigger.GlueTrigger;
import dev.interlock.model.trigger.HttpTrigger;
import dev.interlock.model.trigger.LambdaTrigger;
import dev.interlock.model.trigger.StepFunctionTrigger;
import dev.interlock.model.trigger.TemplateValues;
import dev.interlock.model.trigger.TriggerConfig;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Registration checks of every template of a pipeline ({@link ArgumentTemplate}): each placeholder is known, credentials
 * appear only where a credential may go (request headers and bodies), the deployment may read each one and send it to
 * the request's host ({@link OutboundPolicy}), and every URL is a valid http(s) URL once each schedule's values are
 * filled in — so a template that cannot work is refused now, with its path, and not when the job should start.
 */
final class TemplateValidation {

    /** The date filled in to try URLs and bodies (any date renders to the same shape). */
    static final LocalDate SAMPLE_DATE = LocalDate.of(2026, 1, 31);

    static final String SAMPLE_RUN_ID = "00000000-0000-4000-8000-000000000000";
    /** What a credential is replaced by when a body is tried as JSON: its value is unknown at registration. */
    private static final String SAMPLE_CREDENTIAL = "credential";

    private static final LocalTime SAMPLE_FIRING = LocalTime.of(6, 0);

    private final OutboundPolicy policy;
    private final PipelineConfig pipeline;
    private final NeverAllowedAddresses addresses;
    private final List<ValidationError> errors = new ArrayList<>();

    private TemplateValidation(OutboundPolicy policy, PipelineConfig pipeline, NeverAllowedAddresses addresses) {
        this.policy = policy;
        this.pipeline = pipeline;
        this.addresses = addresses;
    }

    /** Every template problem of the pipeline's trigger, never-allowed addresses of its URLs included. */
    static List<ValidationError> checkTrigger(
            PipelineConfig pipeline, OutboundPolicy policy, NeverAllowedAddresses addresses) {
        TemplateValidation v = new TemplateValidation(policy, pipeline, addresses);
        if (pipeline.trigger() != null) {
            v.trigger(pipeline.trigger(), JsonPath.field(JsonPath.ROOT, "trigger"));
        }
        return List.copyOf(v.errors);
    }

    /**
     * Every template problem of the pipeline's HTTP evaluator headers.
     *
     * @param archetype the pipeline's archetype, whose default evaluator a trait without its own uses (null: unknown)
     */
    static List<ValidationError> checkEvaluatorHeaders(
            PipelineConfig pipeline, OutboundPolicy policy, Archetype archetype) {
        TemplateValidation v = new TemplateValidation(policy, pipeline, null);
        v.evaluatorHeaders(archetype);
        return List.copyOf(v.errors);
    }

    private void trigger(TriggerConfig trigger, String path) {
        switch (trigger) {
            case HttpTrigger t -> {
                Set<String> hosts = url(JsonPath.field(path, "url"), t.url());
                headers(JsonPath.field(path, "headers"), t.headers(), hosts, true);
                request(JsonPath.field(path, "body"), t.body(), hosts, true);
            }
            case AirflowTrigger t -> {
                Set<String> hosts = url(JsonPath.field(path, "url"), t.url());
                headers(JsonPath.field(path, "headers"), t.headers(), hosts, true);
                request(JsonPath.field(path, "body"), t.body(), hosts, true);
                jsonObjectBody(JsonPath.field(path, "body"), t.body());
                tree(JsonPath.field(path, "conf"), t.conf());
            }
            case DatabricksTrigger t -> {
                Set<String> hosts = url(JsonPath.field(path, "workspaceUrl"), t.workspaceUrl());
                headers(JsonPath.field(path, "headers"), t.headers(), hosts, true);
                arguments(JsonPath.field(path, "notebookParams"), t.notebookParams());
            }
            case GlueTrigger t -> arguments(JsonPath.field(path, "arguments"), t.arguments());
            case EmrTrigger t -> arguments(JsonPath.field(path, "arguments"), t.arguments());
            case EmrServerlessTrigger t -> {
                for (int i = 0; i < t.entryPointArguments().size(); i++) {
                    job(
                            JsonPath.index(JsonPath.field(path, "entryPointArguments"), i),
                            t.entryPointArguments().get(i));
                }
                job(JsonPath.field(path, "sparkSubmitParameters"), t.sparkSubmitParameters());
                arguments(JsonPath.field(path, "arguments"), t.arguments());
            }
            case StepFunctionTrigger t -> arguments(JsonPath.field(path, "arguments"), t.arguments());
            case LambdaTrigger t -> {
                if (t.payload() != null) {
                    json(JsonPath.field(path, "payload"), t.payload());
                }
            }
        }
    }

    /** HTTP evaluators' headers go to the evaluator's host; other evaluators take no headers. */
    private void evaluatorHeaders(Archetype archetype) {
        String traitsPath = JsonPath.field(JsonPath.ROOT, "traits");
        for (Map.Entry<String, TraitConfig> entry : pipeline.traits().entrySet()) {
            TraitConfig trait = entry.getValue();
            if (trait == null || trait.headers().isEmpty()) {
                continue;
            }
            String path = JsonPath.field(JsonPath.field(traitsPath, entry.getKey()), "headers");
            String evaluator = trait.evaluator() != null && !trait.evaluator().isBlank()
                    ? trait.evaluator()
                    : archetype == null
                            ? null
                            : archetype
                                    .trait(entry.getKey())
                                    .map(TraitDefinition::evaluator)
                                    .orElse(null);
            EvaluatorLocator locator;
            try {
                locator = evaluator == null || evaluator.isBlank() ? null : EvaluatorLocator.parse(evaluator);
            } catch (IllegalArgumentException e) {
                continue; // the evaluator's own error is reported at its path
            }
            Set<String> hosts = new LinkedHashSet<>();
            switch (locator) {
                case EvaluatorLocator.Http http -> hosts.add(host(http.url()));
                case EvaluatorLocator.RelativePath ignored -> {
                    if (policy.evaluatorBaseUrl().isEmpty()) {
                        add(
                                path,
                                "the evaluator is a relative path, but EVALUATOR_BASE_URL is not set in this "
                                        + "deployment, so where its headers would go is unknown");
                        continue;
                    }
                    hosts.add(host(policy.evaluatorBaseUrl().get()));
                }
                case null, default -> {
                    add(path, "headers are sent only to HTTP evaluators (http(s):// URLs or relative paths)");
                    continue;
                }
            }
            headers(path, trait.headers(), hosts, false);
        }
    }

    // ---------------------------------------------------------------------------------------------- field kinds

    /**
     * A URL: execution values only, and a valid http(s) URL with a host for every schedule.
     *
     * @return the hosts it renders to (empty when it is invalid)
     */
    private Set<String> url(String path, String template) {
        Set<String> hosts = new LinkedHashSet<>();
        if (template == null || template.isBlank()) {
            add(path, "is required: an http(s) URL");
            return hosts;
        }
        List<Part> parts = ArgumentTemplate.parse(template.trim());
        boolean usable = true;
        for (Part part : parts) {
            switch (part) {
                case Part.Invalid invalid -> {
                    add(path, invalid.problem());
                    usable = false;
                }
                case Part.Credential c -> {
                    add(
                            path,
                            c.written() + ": a credential may not be part of a URL (URLs are logged and stored with "
                                    + "the run); send it in a header");
                    usable = false;
                }
                case Part.RunValue ignored -> {}
                case Part.Literal ignored -> {}
            }
        }
        if (!usable) {
            return hosts;
        }
        boolean templated = parts.stream().anyMatch(p -> p instanceof Part.RunValue);
        for (String schedule : scheduleIds()) {
            String rendered = ArgumentTemplate.expand(template.trim(), sample(schedule));
            String problem = urlProblem(rendered);
            if (problem != null) {
                add(
                        path,
                        templated
                                ? "'" + template + "' is not a valid URL for schedule '" + schedule + "': it becomes '"
                                        + rendered + "', which " + problem
                                : "'" + template + "' " + problem);
                hosts.clear();
                return hosts;
            }
            Optional<String> neverAllowed = addresses.problem(URI.create(rendered));
            if (neverAllowed.isPresent()) {
                add(path, "'" + rendered + "' is refused: " + neverAllowed.get());
                hosts.clear();
                return hosts;
            }
            hosts.add(host(URI.create(rendered)));
        }
        return hosts;
    }

    /** Why a URL cannot be called, or null. */
    private static String urlProblem(String url) {
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || HostLiteral.hostOf(uri) == null) {
                return "is not an absolute http(s) URL";
            }
            if (uri.getRawUserInfo() != null) {
                return "carries credentials in the URL, which are not allowed; send them in a header";
            }
            return null;
        } catch (URISyntaxException e) {
            return "is not a valid URL: " + e.getReason();
        }
    }

    private void headers(String path, Map<String, String> headers, Set<String> hosts, boolean runIdKnown) {
        headers.forEach((name, value) -> request(JsonPath.field(path, name), value, hosts, runIdKnown));
    }

    /** A header or body: execution values and credentials the deployment lets go to every host of the request. */
    private void request(String path, String template, Set<String> hosts, boolean runIdKnown) {
        Set<String> reported = new LinkedHashSet<>();
        for (Part part : ArgumentTemplate.parse(template)) {
            switch (part) {
                case Part.Invalid invalid -> reported.add(invalid.problem());
                case Part.RunValue v -> {
                    if (!runIdKnown && v.name().equals("runId")) {
                        reported.add(v.written() + " is not known when traits are evaluated (no run exists yet)");
                    }
                }
                case Part.Credential c -> {
                    policy.unreadable(c.reference()).ifPresent(reported::add);
                    for (String host : hosts) {
                        policy.forbiddenHost(c.reference(), host).ifPresent(reported::add);
                    }
                }
                case Part.Literal ignored -> {}
            }
        }
        reported.forEach(message -> add(path, message));
    }

    /** Data handed to the job (arguments and the like): execution values only. */
    private void job(String path, String template) {
        for (Part part : ArgumentTemplate.parse(template)) {
            switch (part) {
                case Part.Invalid invalid -> add(path, invalid.problem());
                case Part.Credential c ->
                    add(
                            path,
                            c.written() + ": credentials may be sent only in the headers and "
                                    + "body of http, airflow and databricks triggers and in HTTP evaluator headers; this field is "
                                    + "handed to the job as data");
                case Part.RunValue ignored -> {}
                case Part.Literal ignored -> {}
            }
        }
    }

    private void arguments(String path, Map<String, String> arguments) {
        arguments.forEach((key, value) -> job(JsonPath.field(path, key), value));
    }

    private void tree(String path, Map<String, Object> tree) {
        tree.forEach((key, value) -> treeValue(JsonPath.field(path, key), value));
    }

    private void treeValue(String path, Object value) {
        if (value instanceof String s) {
            job(path, s);
        } else if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> treeValue(JsonPath.field(path, String.valueOf(k)), v));
        } else if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                treeValue(JsonPath.index(path, i), list.get(i));
            }
        }
    }

    private void json(String path, JsonNode node) {
        if (node.isTextual()) {
            job(path, node.asText());
        } else if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                json(JsonPath.field(path, field.getKey()), field.getValue());
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                json(JsonPath.index(path, i), node.get(i));
            }
        }
    }

    /** An Airflow body becomes the DAG run's conf: a JSON object once each schedule's values are filled in. */
    private void jsonObjectBody(String path, String body) {
        if (body == null || body.isBlank()) {
            return;
        }
        List<Part> parts = ArgumentTemplate.parse(body);
        if (parts.stream().anyMatch(p -> p instanceof Part.Invalid)) {
            return; // already reported
        }
        for (String schedule : scheduleIds()) {
            StringBuilder rendered = new StringBuilder();
            TemplateValues values = sample(schedule);
            for (Part part : parts) {
                switch (part) {
                    case Part.Literal l -> rendered.append(l.text());
                    case Part.RunValue v -> rendered.append(values.valueOf(v.name()));
                    case Part.Credential ignored -> rendered.append(SAMPLE_CREDENTIAL);
                    case Part.Invalid ignored -> {}
                }
            }
            boolean object;
            try {
                JsonNode parsed = InterlockJson.json().readTree(rendered.toString());
                object = parsed != null && parsed.isObject();
            } catch (JsonProcessingException e) {
                object = false;
            }
            if (!object) {
                add(
                        path,
                        "must be a JSON object (it becomes the DAG run conf)"
                                + (parts.stream().anyMatch(p -> !(p instanceof Part.Literal))
                                        ? " for schedule '" + schedule + "'"
                                        : ""));
                return;
            }
        }
    }

    // ---------------------------------------------------------------------------------------------- helpers

    private List<String> scheduleIds() {
        List<String> ids = new ArrayList<>();
        for (ScheduleConfig schedule : pipeline.effectiveSchedules()) {
            if (schedule != null && schedule.name() != null && !schedule.name().isBlank()) {
                // A cron schedule's windows differ only in their time: one sample window stands for all.
                String id = schedule.hasCron() ? schedule.windowId(SAMPLE_FIRING) : schedule.name();
                if (!ids.contains(id)) {
                    ids.add(id);
                }
            }
        }
        return ids.isEmpty() ? List.of(ScheduleConfig.DAILY) : ids;
    }

    private TemplateValues sample(String scheduleId) {
        return new TemplateValues(pipeline.name(), scheduleId, SAMPLE_DATE, SAMPLE_RUN_ID);
    }

    private static String host(URI uri) {
        String host = uri.getHost();
        return host == null ? "" : host.toLowerCase(Locale.ROOT);
    }

    private void add(String path, String message) {
        ValidationError error = new ValidationError(path, message);
        if (!errors.contains(error)) {
            errors.add(error);
        }
    }
}
