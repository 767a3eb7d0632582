package dev.interlock.wiring.priming;

import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;

/**
 * A CRaC resource (the API Lambda SnapStart calls) that primes before the checkpoint. On a JVM without CRaC,
 * {@code org.crac} registers nothing and the hook never runs.
 */
final class SnapshotHook implements Resource {

    private final Runnable primer;

    private SnapshotHook(Runnable primer) {
        this.primer = primer;
    }

    static SnapshotHook register(Runnable primer) {
        SnapshotHook hook = new SnapshotHook(primer);
        Core.getGlobalContext().register(hook);
        return hook;
    }

    @Override
    public void beforeCheckpoint(Context<? extends Resource> context) {
        primer.run();
    }

    @Override
    public void afterRestore(Context<? extends Resource> context) {
        // Priming opened no connection and cached no credentials: nothing to refresh.
    }

    /** For tests: what SnapStart does before the snapshot. */
    void runBeforeCheckpoint() {
        beforeCheckpoint(null);
    }
}
