package dev.interlock.model.net;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The host of an outbound URL read the way an HTTP client or resolver reads it, so that no spelling of an address
 * slips past the address rules ({@link AddressKind}): IPv4 in every {@code inet_aton} form (dotted decimal, one 32-bit
 * number such as {@code 2852039166}, octal {@code 0251.0376.0251.0376}, hex {@code 0xa9fea9fe}, two or three parts),
 * IPv6 literals in brackets (IPv4-mapped ones included), and names.
 */
public final class HostLiteral {

    private static final Pattern IPV4_PART = Pattern.compile("0[xX][0-9a-fA-F]*|0[0-7]*|[1-9][0-9]*");
    private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:.]+(%[0-9A-Za-z._-]+)?");

    private HostLiteral() {}

    /**
     * The host of {@code uri} without brackets, or null when it has none. {@link URI#getHost()} gives up on octal and
     * hex IPv4 forms (it answers null), which clients still connect to, so the authority is read as such a form then.
     */
    public static String hostOf(URI uri) {
        String host = uri.getHost();
        if (host == null && uri.getRawAuthority() != null) {
            String authority = uri.getRawAuthority();
            authority = authority.substring(authority.lastIndexOf('@') + 1);
            int colon = authority.indexOf(':');
            String numeric = colon < 0 ? authority : authority.substring(0, colon);
            // Only an address spelled in a form URI does not read; any other unreadable authority has no host.
            host = !numeric.startsWith("[") && address(numeric).isPresent() ? numeric : null;
        }
        if (host == null || host.isEmpty()) {
            return null;
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return host;
    }

    /** The address {@code host} spells out, without a lookup; empty when it is a name. */
    public static Optional<InetAddress> address(String host) {
        if (host == null || host.isEmpty()) {
            return Optional.empty();
        }
        String h = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        if (h.indexOf(':') >= 0) {
            return IPV6.matcher(h).matches() ? literal(h) : Optional.empty();
        }
        return ipv4(h.toLowerCase(Locale.ROOT));
    }

    /** {@code inet_aton}: 1 to 4 parts, each decimal, octal (leading 0) or hex (0x); the last fills the remaining bytes. */
    private static Optional<InetAddress> ipv4(String host) {
        String[] parts = host.split("\\.", -1);
        if (parts.length > 4) {
            return Optional.empty();
        }
        long[] values = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            if (!IPV4_PART.matcher(parts[i]).matches()) {
                return Optional.empty();
            }
            try {
                values[i] = parts[i].startsWith("0x")
                        ? (parts[i].length() == 2 ? 0 : Long.parseLong(parts[i].substring(2), 16))
                        : parts[i].length() > 1 && parts[i].startsWith("0")
                                ? Long.parseLong(parts[i].substring(1), 8)
                                : Long.parseLong(parts[i]);
            } catch (NumberFormatException e) {
                return Optional.empty(); // longer than any address: a name as far as a resolver is concerned
            }
        }
        long address = 0;
        for (int i = 0; i < values.length - 1; i++) {
            if (values[i] > 0xff) {
                return Optional.empty();
            }
            address |= values[i] << (8 * (3 - i));
        }
        long last = values[values.length - 1];
        if (last >= 1L << (8 * (5 - values.length))) {
            return Optional.empty();
        }
        address |= last;
        byte[] bytes = {(byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address};
        try {
            return Optional.of(InetAddress.getByAddress(bytes));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    private static Optional<InetAddress> literal(String ipv6) {
        try {
            // Only hex digits, colons and dots reach here, so this parses a literal and never looks anything up.
            return Optional.of(InetAddress.getByName(ipv6));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }
}
