package dev.interlock.store.memory;

import dev.interlock.store.Provider;
import dev.interlock.store.contract.ProviderContract;
import java.time.Clock;

/** The Provider contract on the in-memory Provider. */
class InMemoryProviderContractTest extends ProviderContract {

    @Override
    protected Provider newProvider(Clock clock) {
        return new InMemoryProvider(clock);
    }
}
