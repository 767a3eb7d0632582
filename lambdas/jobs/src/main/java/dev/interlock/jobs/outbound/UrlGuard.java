package dev.interlock.jobs.outbound;

import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.runtime.Environment;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;

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
        String host = uri.getHost();
        if (host == null || host.isEmpty()) {
            throw new OutboundException.Refused("URL has no host: " + uri.getScheme() + "://" + uri.getRawAuthority());
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = uri.getPort() != -1 ? uri.getPort() : (scheme.equals("https") ? 443 : 80);
        List<InetAddress> addresses;
        try {
            addresses = resolver.resolve(host);
        } catch (UnknownHostException e) {
            throw new OutboundException.Network("cannot resolve host '" + host + "'", e);
        }
        if (addresses.isEmpty()) {
            throw new OutboundException.Network("host '" + host + "' has no addresses", null);
        }
        // Every address is checked, not just the one used: a name that mixes a public and a metadata address is
        // refused outright rather than depending on which one a later connect would pick.
        for (InetAddress address : addresses) {
            AddressKind kind = AddressKind.of(address);
            if (kind.alwaysRefused()) {
                throw new OutboundException.Refused(describe(host, address) + " is "
                        + kind.name().toLowerCase(Locale.ROOT).replace('_', '-') + " and never allowed");
            }
            if (kind.privateNetwork() && !allowPrivate) {
                throw new OutboundException.Refused(describe(host, address) + " is "
                        + kind.name().toLowerCase(Locale.ROOT).replace('_', '-')
                        + "; private addresses need INTERLOCK_ALLOW_PRIVATE_URLS=true");
            }
        }
        return new CheckedTarget(uri, host, port, addresses.getFirst(), addresses);
    }

    private static String describe(String host, InetAddress address) {
        String ip = address.getHostAddress();
        return CheckedTarget.isIpLiteral(host)
                ? "address " + host
                : "host '" + host + "' resolves to " + ip + ", which";
    }
}
