package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** One page of a paginated answer; {@code nextToken} is null on the last page. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Page<T>(List<T> items, String nextToken) {

    public Page {
        items = List.copyOf(items);
    }

    /** Cuts {@code all} into pages of {@code maxResults} (0 = the AWS default of 100) using an offset token. */
    static <T> Page<T> of(List<T> all, int maxResults, String nextToken) {
        int size = maxResults <= 0 ? 100 : maxResults;
        int from;
        try {
            from = nextToken == null || nextToken.isEmpty() ? 0 : Integer.parseInt(nextToken);
        } catch (NumberFormatException e) {
            throw invalidToken(nextToken);
        }
        if (from < 0 || from > all.size()) {
            throw invalidToken(nextToken);
        }
        int to = Math.min(all.size(), from + size);
        return new Page<>(all.subList(from, to), to < all.size() ? Integer.toString(to) : null);
    }

    private static StepFunctionsException invalidToken(String nextToken) {
        return new StepFunctionsException(StepFunctionsException.Code.InvalidToken, "Invalid nextToken " + nextToken);
    }
}
