package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One line of control: its cancellation, the event it follows, the Map item it works on (if any), and whether it
 * runs the machine's own (top-level) states, whose positions are journaled.
 */
final class Frame {
    final Cancellation token;
    final ObjectNode mapItem;
    final boolean topLevel;
    long lastEventId;

    private Frame(Cancellation token, long lastEventId, ObjectNode mapItem, boolean topLevel) {
        this.token = token;
        this.lastEventId = lastEventId;
        this.mapItem = mapItem;
        this.topLevel = topLevel;
    }

    /** The execution's own line, following event {@code lastEventId}. */
    static Frame root(Cancellation token, long lastEventId) {
        return new Frame(token, lastEventId, null, true);
    }

    /** A Map iteration's or Parallel branch's line. */
    static Frame inner(Cancellation token, long lastEventId, ObjectNode mapItem) {
        return new Frame(token, lastEventId, mapItem, false);
    }
}
