package dev.interlock.api;

import dev.interlock.model.json.ValidationError;
import dev.interlock.store.Provider;
import dev.interlock.store.StatusReader;
import java.time.Clock;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

/**
 * Why each pipeline day is where it is ({@code /pipelines/{id}/status}, {@code /status}) and what happened in it
 * ({@code /pipelines/{id}/timeline}). Read only: every answer is derived by {@link StatusReader} from what the
 * table holds, and nothing is written.
 */
final class StatusRoutes {

    private final StatusReader reader;

    StatusRoutes(Provider provider, Clock clock) {
        this.reader = new StatusReader(provider, clock);
    }

    ApiResponse pipeline(ApiRequest request, Map<String, String> path) {
        String id = PathIds.pipelineId(path.get("id"));
        LocalDate date = date(request);
        return reader.status(id, date)
                .map(status -> ApiResponse.json(200, status))
                .orElseThrow(() -> PipelineRoutes.notFound(id));
    }

    ApiResponse all(ApiRequest request, Map<String, String> path) {
        LocalDate date = date(request);
        return Paging.list(reader.overview(date, Paging.of(request)));
    }

    ApiResponse timeline(ApiRequest request, Map<String, String> path) {
        String id = PathIds.pipelineId(path.get("id"));
        LocalDate date = date(request);
        return reader.timeline(id, date)
                .map(timeline -> ApiResponse.json(200, timeline))
                .orElseThrow(() -> PipelineRoutes.notFound(id));
    }

    /** The {@code date} query parameter; absent means today in each pipeline's zone. */
    private static LocalDate date(ApiRequest request) {
        String raw = request.queryParameter("date").orElse(null);
        if (raw == null || raw.isBlank()) {
            return null;
        }
        try {
            return LocalDate.parse(raw.trim());
        } catch (DateTimeParseException e) {
            throw ProblemException.invalid(
                    "invalid date",
                    List.of(new ValidationError("query.date", "must be a date YYYY-MM-DD, got '" + raw + "'")));
        }
    }
}
