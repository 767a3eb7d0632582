package dev.interlock.model.net;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Registration's half of the address rules ({@link AddressKind}): a URL whose host is, or resolves to, an address that
 * outbound HTTP may never reach (instance metadata, link-local, reserved) is refused when it is registered, not when
 * the day needs it. Private and loopback addresses pass here: whether they may be called depends on
 * {@code INTERLOCK_ALLOW_PRIVATE_URLS} where the call is made, and the outbound guard judges every call again.
 */
public final class NeverAllowedAddresses {

    /** How long registration waits for one host's DNS answer before leaving the judgement to call time. */
    public static final Duration LOOKUP_LIMIT = Duration.ofSeconds(2);

    private final HostResolver resolver;

    /** @param resolver resolves names; registration passes a bounded one ({@link HostResolver#bounded}) */
    public NeverAllowedAddresses(HostResolver resolver) {
        this.resolver = resolver;
    }

    /** The JVM's resolver, bounded by {@link #LOOKUP_LIMIT}. */
    public static NeverAllowedAddresses system() {
        return new NeverAllowedAddresses(HostResolver.system().bounded(LOOKUP_LIMIT));
    }

    /**
     * Why {@code url} may never be called, or empty. A name that does not resolve (now, from here) is not refused: it
     * may resolve where the call is made, and is checked again then.
     */
    public Optional<String> problem(URI url) {
        String host = HostLiteral.hostOf(url);
        if (host == null) {
            return Optional.empty();
        }
        List<InetAddress> addresses;
        Optional<InetAddress> literal = HostLiteral.address(host);
        if (literal.isPresent()) {
            addresses = List.of(literal.get());
        } else {
            try {
                addresses = resolver.resolve(host);
            } catch (UnknownHostException | RuntimeException e) {
                return Optional.empty();
            }
        }
        for (InetAddress address : addresses) {
            Optional<String> refusal = AddressKind.refusal(host, address, true);
            if (refusal.isPresent()) {
                return refusal;
            }
        }
        return Optional.empty();
    }

    /** Why a host pattern of a deployment's allow-list names a never-allowed address, or empty (names are not resolved). */
    public static Optional<String> literalProblem(String host) {
        return HostLiteral.address(host).flatMap(address -> AddressKind.refusal(host, address, true));
    }
}
