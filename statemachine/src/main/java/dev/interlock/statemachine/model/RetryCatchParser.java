package dev.interlock.statemachine.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** The Retry and Catch rules of a Task, Map or Parallel state. */
final class RetryCatchParser {

    private final AslFields fields;

    RetryCatchParser(AslFields fields) {
        this.fields = fields;
    }

    List<Retrier> retriers(JsonNode n, String at) {
        List<Retrier> retriers = new ArrayList<>();
        JsonNode array = n.get("Retry");
        if (array == null) {
            return retriers;
        }
        if (!array.isArray()) {
            fields.problem(at + ".Retry: must be an array");
            return retriers;
        }
        for (int i = 0; i < array.size(); i++) {
            String rAt = at + ".Retry[" + i + "]";
            JsonNode r = array.get(i);
            Integer interval = fields.integer(r, "IntervalSeconds", rAt);
            Integer maxAttempts = fields.integer(r, "MaxAttempts", rAt);
            JsonNode backoff = r.get("BackoffRate");
            if (backoff != null && !backoff.isNumber()) {
                fields.problem(rAt + ".BackoffRate: must be a number");
            }
            String jitter = fields.text(r, "JitterStrategy", rAt);
            Retrier.JitterStrategy strategy = Retrier.JitterStrategy.NONE;
            if (jitter != null) {
                try {
                    strategy = Retrier.JitterStrategy.valueOf(jitter);
                } catch (IllegalArgumentException e) {
                    fields.problem(rAt + ".JitterStrategy: must be FULL or NONE, found " + jitter);
                }
            }
            retriers.add(new Retrier(
                    errorEquals(r, rAt),
                    interval == null ? Retrier.DEFAULT_INTERVAL_SECONDS : interval,
                    maxAttempts == null ? Retrier.DEFAULT_MAX_ATTEMPTS : maxAttempts,
                    backoff == null || !backoff.isNumber() ? Retrier.DEFAULT_BACKOFF_RATE : backoff.asDouble(),
                    fields.integer(r, "MaxDelaySeconds", rAt),
                    strategy));
        }
        return retriers;
    }

    List<Catcher> catchers(JsonNode n, String at) {
        List<Catcher> catchers = new ArrayList<>();
        JsonNode array = n.get("Catch");
        if (array == null) {
            return catchers;
        }
        if (!array.isArray()) {
            fields.problem(at + ".Catch: must be an array");
            return catchers;
        }
        for (int i = 0; i < array.size(); i++) {
            String cAt = at + ".Catch[" + i + "]";
            JsonNode c = array.get(i);
            String next = fields.text(c, "Next", cAt);
            if (next == null) {
                fields.problem(cAt + ".Next: required");
            }
            catchers.add(new Catcher(errorEquals(c, cAt), next, fields.path(c, "ResultPath", cAt)));
        }
        return catchers;
    }

    private List<String> errorEquals(JsonNode n, String at) {
        List<String> errors = new ArrayList<>();
        JsonNode array = n.get("ErrorEquals");
        if (array == null || !array.isArray()) {
            fields.problem(at + ".ErrorEquals: required array of strings");
            return errors;
        }
        array.forEach(e -> {
            if (e.isTextual()) {
                errors.add(e.asText());
            } else {
                fields.problem(at + ".ErrorEquals: must contain only strings");
            }
        });
        return errors;
    }
}
