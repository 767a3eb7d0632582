package dev.interlock.api;

import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.validation.PipelineValidation;
import dev.interlock.store.AlertQuery;
import dev.interlock.store.PageRequest;
import dev.interlock.store.Provider;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /alerts}: the alerts sent, newest first, from the table's alert history (the same answer on AWS and
 * locally), filtered by {@code pipeline}, {@code kind} and {@code since}; a bad filter is a 400 naming it.
 */
final class AlertRoutes {

    private final Provider provider;

    AlertRoutes(Provider provider) {
        this.provider = provider;
    }

    ApiResponse list(ApiRequest request, Map<String, String> path) {
        List<ValidationError> errors = new ArrayList<>();
        String pipeline = text(request, "pipeline");
        if (pipeline != null && !PipelineValidation.NAME.matcher(pipeline).matches()) {
            errors.add(new ValidationError(
                    "query.pipeline",
                    "'" + pipeline + "' is not a pipeline id (" + PipelineValidation.NAME.pattern() + ")"));
        }
        AlertKind kind = null;
        String rawKind = text(request, "kind");
        if (rawKind != null) {
            try {
                kind = AlertKind.fromJson(rawKind);
            } catch (IllegalArgumentException e) {
                errors.add(new ValidationError("query.kind", e.getMessage()));
            }
        }
        Instant since = null;
        String rawSince = text(request, "since");
        if (rawSince != null) {
            since = instant(rawSince);
            if (since == null) {
                errors.add(new ValidationError(
                        "query.since",
                        "must be an instant (2026-03-01T06:00:00Z) or a date (2026-03-01, midnight UTC), got '"
                                + rawSince + "'"));
            }
        }
        PageRequest page;
        try {
            page = Paging.of(request);
        } catch (ProblemException e) {
            errors.addAll(e.problem().errors());
            page = null;
        }
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("invalid alert filters", errors);
        }
        return Paging.list(provider.alertHistory().list(new AlertQuery(pipeline, kind, since), page));
    }

    private static String text(ApiRequest request, String name) {
        return request.queryParameter(name)
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .orElse(null);
    }

    private static Instant instant(String raw) {
        try {
            return Instant.parse(raw);
        } catch (DateTimeException notAnInstant) {
            try {
                return LocalDate.parse(raw).atStartOfDay(ZoneOffset.UTC).toInstant();
            } catch (DateTimeException notADate) {
                return null;
            }
        }
    }
}
