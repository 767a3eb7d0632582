package dev.interlock.model.keys;

/** The primary key (PK, SK) of one table item. */
public record ItemKey(String pk, String sk) {}
