package dev.interlock.runtime.outbound;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What an outbound HTTP call answered.
 *
 * @param status  the HTTP status code
 * @param body    the body as UTF-8 text, cut at {@link GuardedHttp#MAX_BODY_BYTES}
 * @param headers the response headers, names compared case-insensitively
 */
public record OutboundResponse(int status, String body, Map<String, List<String>> headers) {

    public OutboundResponse {
        TreeMap<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.forEach((k, v) -> {
            if (k != null) {
                copy.put(k, List.copyOf(v));
            }
        });
        headers = java.util.Collections.unmodifiableMap(copy);
        body = body == null ? "" : body;
    }

    /** 2xx. */
    public boolean isSuccess() {
        return status >= 200 && status < 300;
    }

    /** The first value of a header. */
    public Optional<String> header(String name) {
        List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
    }

    /**
     * This response if it is a 2xx, else the typed failure for its status.
     *
     * @param what the call, for the message (method and redacted URL)
     */
    public OutboundResponse requireSuccess(String what) throws OutboundException.Status {
        if (isSuccess()) {
            return this;
        }
        throw new OutboundException.Status(
                what + " returned status " + status + (body.isBlank() ? "" : ": " + bodySnippet()), this);
    }

    /** The body for an error message: at most 200 characters, on one line. */
    public String bodySnippet() {
        String oneLine = body.replaceAll("\\s+", " ").strip();
        return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 200) + "…";
    }
}
