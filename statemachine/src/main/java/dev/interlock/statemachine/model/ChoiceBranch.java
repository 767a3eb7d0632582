package dev.interlock.statemachine.model;

/** A top-level entry of a Choice state's {@code Choices}: a rule and the state to go to when it holds. */
public record ChoiceBranch(ChoiceRule rule, String next) {}
