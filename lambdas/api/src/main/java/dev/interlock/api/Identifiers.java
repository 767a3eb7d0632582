package dev.interlock.api;

import java.util.UUID;

/** Where new ids (rerun ids, marker suffixes) come from; tests pass a counter. */
@FunctionalInterface
public interface Identifiers {

    /** A new id, unique for practical purposes, without '#'. */
    String next();

    /** Random UUIDs, drawn per call (never at init, so SnapStart restores do not share them). */
    static Identifiers random() {
        return () -> UUID.randomUUID().toString();
    }
}
