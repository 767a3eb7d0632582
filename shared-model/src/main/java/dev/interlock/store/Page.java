package dev.interlock.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * One page of a listing; {@code nextCursor} is opaque, present only when more items follow, and is passed back in a
 * {@link PageRequest} to read the next page.
 */
public record Page<T>(List<T> items, String nextCursor) {
    public Page {
        items = List.copyOf(items);
    }

    /** The last page: no cursor. */
    public static <T> Page<T> last(List<T> items) {
        return new Page<>(items, null);
    }

    /** The cursor of the next page, if there is one. */
    public Optional<String> next() {
        return Optional.ofNullable(nextCursor);
    }

    /** Whether no page follows this one. */
    public boolean isLast() {
        return nextCursor == null;
    }

    /** Reads every page of a listing, {@code pageSize} items at a time (for readers that need the whole set). */
    public static <T> List<T> all(int pageSize, Function<PageRequest, Page<T>> listing) {
        List<T> all = new ArrayList<>();
        PageRequest request = PageRequest.first(pageSize);
        while (true) {
            Page<T> page = listing.apply(request);
            all.addAll(page.items());
            if (page.isLast()) {
                return all;
            }
            request = request.after(page.nextCursor());
        }
    }
}
