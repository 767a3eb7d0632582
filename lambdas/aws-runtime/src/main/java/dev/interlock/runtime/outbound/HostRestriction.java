package dev.interlock.runtime.outbound;

import java.util.Optional;

/**
 * The hosts a request may be sent to because of what it carries: a request with credentials in it may reach only hosts
 * the deployment allows for each of them. {@link GuardedHttp} asks before every attempt, with the host it is about to
 * connect to, so nothing that changes the target after the request was built (a redirect followed by a later change,
 * a rewritten URL) can take a credential elsewhere.
 */
@FunctionalInterface
public interface HostRestriction {

    /** Any host (the request carries no credential). */
    HostRestriction NONE = host -> Optional.empty();

    /** Why the request may not go to {@code host}, or empty when it may. */
    Optional<String> refusal(String host);
}
