package dev.interlock.runtime.outbound;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.util.List;

/**
 * A URL that passed the {@link UrlGuard}, with the one address the request must connect to: the request goes to
 * that address (never to a second lookup of the name), so DNS rebinding between the check and the connect cannot
 * redirect it.
 *
 * @param uri      the URL as configured
 * @param host     its host as written (a name or an IP literal, without brackets)
 * @param port     the explicit or default port
 * @param address  the checked address the request connects to
 * @param resolved every address the host resolved to (all were checked)
 */
public record CheckedTarget(URI uri, String host, int port, InetAddress address, List<InetAddress> resolved) {

    public CheckedTarget {
        resolved = List.copyOf(resolved);
    }

    /** Whether the URL named an IP literal (no name to send as Host or TLS server name). */
    public boolean hostIsLiteral() {
        return address.getHostAddress().equalsIgnoreCase(host) || isIpLiteral(host);
    }

    /** Whether the request is TLS. */
    public boolean secure() {
        return "https".equalsIgnoreCase(uri.getScheme());
    }

    /** The URL with its host replaced by the checked address; path, query and port are kept byte for byte. */
    public URI pinnedUri() {
        String literal = address instanceof Inet6Address
                ? "[" + stripScope(address.getHostAddress()) + "]"
                : address.getHostAddress();
        StringBuilder s = new StringBuilder(uri.getScheme().toLowerCase(java.util.Locale.ROOT))
                .append("://")
                .append(literal)
                .append(':')
                .append(port);
        String rawPath = uri.getRawPath();
        s.append(rawPath == null || rawPath.isEmpty() ? "/" : rawPath);
        if (uri.getRawQuery() != null) {
            s.append('?').append(uri.getRawQuery());
        }
        return URI.create(s.toString());
    }

    /** The Host header the origin expects: the configured name, with the port when it is not the default. */
    public String hostHeader() {
        String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        int defaultPort = secure() ? 443 : 80;
        return port == defaultPort ? h : h + ":" + port;
    }

    /** The URL for messages and logs: no query string (it may carry tokens), no user info. */
    public String redacted() {
        return uri.getScheme() + "://" + hostHeader() + (uri.getRawPath() == null ? "" : uri.getRawPath());
    }

    static boolean isIpLiteral(String host) {
        return dev.interlock.model.net.HostLiteral.address(host).isPresent();
    }

    private static String stripScope(String v6) {
        int percent = v6.indexOf('%');
        return percent < 0 ? v6 : v6.substring(0, percent);
    }
}
