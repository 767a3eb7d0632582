package dev.interlock.api;

import dev.interlock.model.json.ValidationError;
import dev.interlock.store.Page;
import dev.interlock.store.PageRequest;
import java.util.ArrayList;
import java.util.List;

/** The {@code limit} and {@code cursor} query parameters of a listing, checked, and the list document it answers. */
public final class Paging {

    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 100;
    /** Cursors the stores hand out are short; a longer one is not ours. */
    public static final int MAX_CURSOR_LENGTH = 2048;

    private Paging() {}

    /** The page the request asks for; a bad limit or cursor is a 400 naming the parameter. */
    public static PageRequest of(ApiRequest request) {
        List<ValidationError> errors = new ArrayList<>();
        int limit = DEFAULT_LIMIT;
        String rawLimit = request.queryParameter("limit").orElse(null);
        if (rawLimit != null) {
            try {
                limit = Integer.parseInt(rawLimit.trim());
                if (limit < 1 || limit > MAX_LIMIT) {
                    errors.add(new ValidationError(
                            "query.limit", "must be between 1 and " + MAX_LIMIT + ", got " + limit));
                }
            } catch (NumberFormatException e) {
                errors.add(new ValidationError(
                        "query.limit",
                        "must be a whole number between 1 and " + MAX_LIMIT + ", got '" + rawLimit + "'"));
            }
        }
        String cursor = request.queryParameter("cursor").orElse(null);
        if (cursor != null && (cursor.isBlank() || cursor.length() > MAX_CURSOR_LENGTH)) {
            errors.add(new ValidationError("query.cursor", "is not a cursor this listing returned"));
        }
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("invalid paging parameters", errors);
        }
        return new PageRequest(limit, cursor);
    }

    /** The list document: {@code {"items":[…],"nextCursor":"…"}}, the cursor absent on the last page. */
    public static ApiResponse list(Page<?> page) {
        return ApiResponse.json(200, new Listing(page.items(), page.nextCursor()));
    }

    /** The body of every list response. */
    public record Listing(List<?> items, String nextCursor) {}
}
