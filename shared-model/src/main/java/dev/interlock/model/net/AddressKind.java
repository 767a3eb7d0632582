package dev.interlock.model.net;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Set;

/** What kind of network an IP address belongs to, which decides whether outbound HTTP may reach it. */
public enum AddressKind {
    /** Routable on the internet. */
    PUBLIC,
    /** RFC 1918, shared address space (100.64/10), the IETF protocol block, benchmarking (198.18/15), IPv6 site-local. */
    PRIVATE,
    /** 127/8 and ::1. */
    LOOPBACK,
    /** fc00::/7. */
    UNIQUE_LOCAL,
    /** 0.0.0.0/8 and :: — Linux connects these to the local host. */
    UNSPECIFIED,
    /** 169.254/16 and fe80::/10: never a legitimate pipeline endpoint, home of cloud metadata services. */
    LINK_LOCAL,
    /** A cloud instance-metadata or platform endpoint, whatever range it sits in. */
    METADATA,
    /** Multicast, broadcast and reserved ranges: nothing to connect to over TCP. */
    RESERVED;

    // Well-known instance-metadata and platform endpoints: AWS IMDS (IPv4/IPv6), ECS task metadata, AWS VPC DNS
    // over IPv6, Alibaba Cloud, Azure wire server, Oracle Cloud.
    private static final Set<InetAddress> METADATA_ADDRESSES = Set.of(
            literal("169.254.169.254"),
            literal("169.254.170.2"),
            literal("fd00:ec2::254"),
            literal("fd00:ec2::23"),
            literal("100.100.100.200"),
            literal("168.63.129.16"),
            literal("192.0.0.192"));

    /** Kinds refused whatever the configuration says. */
    public boolean alwaysRefused() {
        return this == LINK_LOCAL || this == METADATA || this == RESERVED;
    }

    /** Kinds refused unless private URLs are explicitly allowed (the local runtime). */
    public boolean privateNetwork() {
        return this == PRIVATE || this == LOOPBACK || this == UNIQUE_LOCAL || this == UNSPECIFIED;
    }

    /**
     * Why outbound HTTP may not go to {@code address}, which {@code host} (a literal or a name) is or resolves to; empty
     * when it may. Never-allowed kinds are refused always; private ones unless {@code allowPrivate}.
     */
    public static java.util.Optional<String> refusal(String host, InetAddress address, boolean allowPrivate) {
        AddressKind kind = of(address);
        String what = HostLiteral.address(host).isPresent()
                ? "address " + host
                : "host '" + host + "' resolves to " + address.getHostAddress() + ", which";
        String name = kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        if (kind.alwaysRefused()) {
            return java.util.Optional.of(what + " is " + name + " and never allowed");
        }
        if (kind.privateNetwork() && !allowPrivate) {
            return java.util.Optional.of(
                    what + " is " + name + "; private addresses need INTERLOCK_ALLOW_PRIVATE_URLS=true");
        }
        return java.util.Optional.empty();
    }

    /** Classifies one address; IPv6 forms that embed an IPv4 address are judged by the embedded address too. */
    public static AddressKind of(InetAddress address) {
        if (METADATA_ADDRESSES.contains(address)) {
            return METADATA;
        }
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            return ofV4(b);
        }
        return ofV6((Inet6Address) address, b);
    }

    private static AddressKind ofV4(byte[] b) {
        int o0 = b[0] & 0xff;
        int o1 = b[1] & 0xff;
        int o2 = b[2] & 0xff;
        if (o0 == 0) {
            return UNSPECIFIED;
        }
        if (o0 == 127) {
            return LOOPBACK;
        }
        if (o0 == 169 && o1 == 254) {
            return LINK_LOCAL;
        }
        if (o0 >= 224) {
            return RESERVED;
        }
        if (o0 == 10
                || (o0 == 172 && o1 >= 16 && o1 <= 31)
                || (o0 == 192 && o1 == 168)
                || (o0 == 100 && o1 >= 64 && o1 <= 127)
                || (o0 == 192 && o1 == 0 && o2 == 0)
                || (o0 == 198 && (o1 == 18 || o1 == 19))) {
            return PRIVATE;
        }
        return PUBLIC;
    }

    private static AddressKind ofV6(Inet6Address address, byte[] b) {
        if (address.isAnyLocalAddress()) {
            return UNSPECIFIED;
        }
        if (address.isLoopbackAddress()) {
            return LOOPBACK;
        }
        int b0 = b[0] & 0xff;
        int b1 = b[1] & 0xff;
        if (b0 == 0xfe && (b1 & 0xc0) == 0x80) {
            return LINK_LOCAL;
        }
        if (b0 == 0xfe && (b1 & 0xc0) == 0xc0) {
            return PRIVATE;
        }
        if ((b0 & 0xfe) == 0xfc) {
            return UNIQUE_LOCAL;
        }
        if (b0 == 0xff) {
            return RESERVED;
        }
        byte[] embedded = embeddedV4(b);
        if (embedded != null) {
            AddressKind inner = of(v4(embedded));
            // An embedded public address is only public if the wrapper itself is: a 6to4 or NAT64 relay is.
            return inner == PUBLIC ? PUBLIC : inner;
        }
        return PUBLIC;
    }

    /**
     * The IPv4 address inside IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::/96) and
     * 6to4 (2002::/16) addresses, which a dual-stack host or a translator turns back into that IPv4 address.
     */
    private static byte[] embeddedV4(byte[] b) {
        boolean firstTenZero = Arrays.equals(b, 0, 10, new byte[10], 0, 10);
        if (firstTenZero && ((b[10] == 0 && b[11] == 0) || (b[10] == (byte) 0xff && b[11] == (byte) 0xff))) {
            return Arrays.copyOfRange(b, 12, 16);
        }
        if (b[0] == 0x00
                && b[1] == 0x64
                && b[2] == (byte) 0xff
                && b[3] == (byte) 0x9b
                && Arrays.equals(b, 4, 12, new byte[8], 0, 8)) {
            return Arrays.copyOfRange(b, 12, 16);
        }
        if (b[0] == 0x20 && b[1] == 0x02) {
            return Arrays.copyOfRange(b, 2, 6);
        }
        return null;
    }

    private static InetAddress v4(byte[] b) {
        try {
            return InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IPv4 address", e);
        }
    }

    private static InetAddress literal(String ip) {
        try {
            return InetAddress.getByName(ip);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(ip, e);
        }
    }
}
