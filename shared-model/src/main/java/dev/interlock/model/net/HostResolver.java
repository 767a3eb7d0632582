package dev.interlock.model.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Resolves a host name to every address it has: DNS in production, a fixed table in tests. */
@FunctionalInterface
public interface HostResolver {

    /** All addresses of {@code host} (an IP literal resolves to itself without a lookup). */
    List<InetAddress> resolve(String host) throws UnknownHostException;

    /** The JVM's resolver. */
    static HostResolver system() {
        return host -> List.of(InetAddress.getAllByName(host));
    }

    /**
     * This resolver, answering within {@code limit} or not at all (an {@link UnknownHostException} saying so): the JVM's
     * lookup cannot be interrupted, so it runs on a virtual thread that is left to finish on its own. Registration uses
     * it so that a slow or black-holed DNS server cannot hold a request.
     */
    default HostResolver bounded(Duration limit) {
        HostResolver inner = this;
        return host -> {
            CompletableFuture<List<InetAddress>> lookup = new CompletableFuture<>();
            Thread.ofVirtual().name("resolve " + host).start(() -> {
                try {
                    lookup.complete(inner.resolve(host));
                } catch (UnknownHostException | RuntimeException e) {
                    lookup.completeExceptionally(e);
                }
            });
            try {
                return lookup.get(limit.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                throw new UnknownHostException(
                        "host '" + host + "' did not resolve within " + limit.toMillis() + " ms");
            } catch (ExecutionException e) {
                if (e.getCause() instanceof UnknownHostException unknown) {
                    throw unknown;
                }
                throw new UnknownHostException("host '" + host + "' did not resolve: " + e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new UnknownHostException("interrupted while resolving host '" + host + "'");
            }
        };
    }
}
