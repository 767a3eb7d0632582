package dev.interlock.jobs.outbound;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/** Resolves a host name to every address it has: DNS in production, a fixed table in tests. */
@FunctionalInterface
public interface HostResolver {

    /** All addresses of {@code host} (an IP literal resolves to itself without a lookup). */
    List<InetAddress> resolve(String host) throws UnknownHostException;

    /** The JVM's resolver. */
    static HostResolver system() {
        return host -> List.of(InetAddress.getAllByName(host));
    }
}
