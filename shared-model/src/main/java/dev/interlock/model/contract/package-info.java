/**
 * The contract between the state machine (statemachine/src/main/resources/asl/interlock.asl.json) and the Lambdas
 * it calls, as types: the orchestrator's actions ({@link dev.interlock.model.contract.OrchestratorAction}), the
 * trigger's and the run-checker's requests and answers. The statemachine module's contract tests check each of them
 * against {@code contract.json}, the machine-readable part of statemachine/CONTRACT.md, so a field or an action
 * renamed on one side fails the build.
 */
package dev.interlock.model.contract;
