/**
 * The storage interface of Interlock (docs/table-design.md): {@link dev.interlock.store.Provider} and its narrow stores.
 *
 * <p>Conventions every implementation keeps (the contract suite in the shared-model test-jar checks them):
 * domain outcomes are return values (a lost CAS is {@code false}, a taken lock is {@code false}, an existing marker
 * is {@code false}, a moved run is {@link dev.interlock.store.TransitionOutcome.RunVersionConflict}, a refused rerun is a
 * {@link dev.interlock.store.RerunAcceptance}); infrastructure
 * faults are {@link dev.interlock.store.StoreException}; a foreign cursor is
 * {@link dev.interlock.store.InvalidCursorException}. Expired items read as absent
 * ({@link dev.interlock.store.TimeToLive}). Listings return {@link dev.interlock.store.Page}s whose cursor is present
 * exactly when more items follow. Implementations are thread-safe. Listings by type, by pipeline's runs and by
 * date (GSI1 on DynamoDB) are eventually consistent there: a just-written item may appear a moment later; reads by
 * key and listings within one pipeline's partition see every completed write.
 */
package dev.interlock.store;
