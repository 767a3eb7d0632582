package dev.interlock.model.keys;

/** The GSI1 key (GSI1PK, GSI1SK) an item carries so it can be listed by type or by pipeline. */
public record IndexKey(String gsi1pk, String gsi1sk) {}
