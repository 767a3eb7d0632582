package dev.interlock.statemachine.model;

/** Where a state goes when it completes: to a named state or to the end of its graph. */
public sealed interface Transition {

    /** Continue with the named state. */
    record Next(String state) implements Transition {}

    /** End the enclosing graph (execution, branch or iteration). */
    record End() implements Transition {}
}
