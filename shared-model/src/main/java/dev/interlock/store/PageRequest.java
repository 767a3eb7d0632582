package dev.interlock.store;

/**
 * Which page to read: at most {@code limit} items after {@code cursor} (null = from the beginning).
 *
 * @param cursor a {@code nextCursor} returned by the same listing; cursors of other listings are rejected
 */
public record PageRequest(int limit, String cursor) {

    /** The largest page a store returns; bigger requests are a caller bug, not a reason to read a whole partition. */
    public static final int MAX_LIMIT = 1000;

    public PageRequest {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("page limit must be between 1 and " + MAX_LIMIT + ": " + limit);
        }
        if (cursor != null && cursor.isBlank()) {
            cursor = null;
        }
    }

    /** The first page. */
    public static PageRequest first(int limit) {
        return new PageRequest(limit, null);
    }

    /** The page after {@code nextCursor}, same size. */
    public PageRequest after(String nextCursor) {
        return new PageRequest(limit, nextCursor);
    }
}
