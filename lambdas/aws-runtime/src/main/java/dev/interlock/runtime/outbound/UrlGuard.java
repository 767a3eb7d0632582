package dev.interlock.runtime.outbound;

import dev.interlock.model.net.AddressKind;
import dev.interlock.model.net.HostLiteral;
import dev.interlock.model.net.HostResolver;
import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.runtime.Environment;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Decides whether outbound HTTP may go to a URL (SSRF protection): only http and https; every address the host
 * resolves to must be acceptable — link-local and instance-metadata addresses never are, private, loopback,
 * unique-local and unspecified ones only when private URLs are allowed (the local runtime).
 */
public final class UrlGuard {

    private final boolean allowPrivate;
    private final HostResolver resolver;

    public UrlGuard(boolean allowPrivate, HostResolver resolver) {
        this.allowPrivate = allowPrivate;
        this.resolver = resolver;
    }

    /** The guard a function uses: {@code INTERLOCK_ALLOW_PRIVATE_URLS} and the system resolver. */
    public static UrlGuard fromEnvironment(Environment environment) {
        return new UrlGuard(environment.getBoolean(EnvVar.INTERLOCK_ALLOW_PRIVATE_URLS), HostResolver.system());
    }

    /** Whether private and loopback addresses are allowed. */
    public boolean allowsPrivate() {
        return allowPrivate;
    }

    /**
     * Checks a URL and picks the address to connect to.
     *
     * @throws OutboundException.Refused when the scheme, the URL's shape or any resolved address is not allowed
     * @throws OutboundException.Network when the host does not resolve
     */
    public CheckedTarget check(URI uri) throws OutboundException {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new OutboundException.Refused("only http and https URLs are allowed, got '" + scheme + "'");
        }
        if (uri.getRawUserInfo() != null) {
            throw new OutboundException.Refused("credentials in a URL are not allowed; send them as a header");
        }
        String host = HostLiteral.hostOf(uri);
        if (host == null) {
            throw new OutboundException.Refused("URL has no host: " + uri.getScheme() + "://" + uri.getRawAuthority());
        }
        int port = uri.getPort() != -1 ? uri.getPort() : (scheme.equals("https") ? 443 : 80);
        List<InetAddress> addresses;
        Optional<InetAddress> literal = HostLiteral.address(host);
        if (literal.isPresent()) {
            // Read as a client would (octal, hex, one number): the JVM's resolver would send some of these to DNS.
            addresses = List.of(literal.get());
        } else {
            try {
                addresses = resolver.resolve(host);
            } catch (UnknownHostException e) {
                throw new OutboundException.Network("cannot resolve host '" + host + "'", e);
            }
        }
        if (addresses.isEmpty()) {
            throw new OutboundException.Network("host '" + host + "' has no addresses", null);
        }
        // Every address is checked, not just the one used: a name that mixes a public and a metadata address is
        // refused outright rather than depending on which one a later connect would pick.
        for (InetAddress address : addresses) {
            Optional<String> refusal = AddressKind.refusal(host, address, allowPrivate);
            if (refusal.isPresent()) {
                throw new OutboundException.Refused(refusal.get());
            }
        }
        return new CheckedTarget(uri, host, port, addresses.getFirst(), addresses);
    }
}
