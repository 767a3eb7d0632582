package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;

/** One page of a paginated answer; {@code nextToken} is null on the last page. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Page<T>(List<T> items, String nextToken) {

    /** AWS's bounds of {@code maxResults}; 0 (or absent) means 100. */
    public static final int DEFAULT_SIZE = 100;

    public static final int MAX_SIZE = 1000;

    public Page {
        items = List.copyOf(items);
    }

    /**
     * Cuts {@code all} into pages of {@code maxResults}. The token names the last item handed out (by {@code key}) and
     * the listing it belongs to ({@code scope}: the status filter, the order), not a position: items that appear
     * before it between two calls (an execution started, an event added to a reversed history) neither repeat nor
     * push others out of the next page, and a token is refused by a listing of another scope, as AWS refuses it.
     */
    static <T> Page<T> after(List<T> all, int maxResults, String nextToken, String scope, Function<T, String> key) {
        int size = maxResults <= 0 ? DEFAULT_SIZE : Math.min(maxResults, MAX_SIZE);
        int from = 0;
        if (nextToken != null && !nextToken.isEmpty()) {
            String last = lastKey(nextToken, scope);
            from = -1;
            for (int i = 0; i < all.size(); i++) {
                if (key.apply(all.get(i)).equals(last)) {
                    from = i + 1;
                    break;
                }
            }
            if (from < 0) {
                throw invalidToken();
            }
        }
        int to = Math.min(all.size(), from + size);
        return new Page<>(all.subList(from, to), to < all.size() ? token(scope, key.apply(all.get(to - 1))) : null);
    }

    private static String token(String scope, String lastKey) {
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString((scope + "\n" + lastKey).getBytes(StandardCharsets.UTF_8));
    }

    private static String lastKey(String token, String scope) {
        String decoded;
        try {
            decoded = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw invalidToken();
        }
        int newline = decoded.indexOf('\n');
        if (newline < 0 || !decoded.substring(0, newline).equals(scope)) {
            throw invalidToken();
        }
        return decoded.substring(newline + 1);
    }

    private static StepFunctionsException invalidToken() {
        return new StepFunctionsException(StepFunctionsException.Code.InvalidToken, "Invalid Token: 'Invalid token'");
    }
}
