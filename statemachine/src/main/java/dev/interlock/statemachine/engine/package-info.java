/**
 * The local Step Functions engine: runs an ASL definition with AWS's data-flow, error and history semantics.
 *
 * <pre>{@code
 * StateMachineDefinition definition = StateMachineDefinition.parse(aslText, substitutions);
 * TaskResources resources = TaskResources.builder()
 *         .function(orchestratorArn, invocation -> orchestrator.handle(invocation.payload()))
 *         .resource(TaskResources.SNS_PUBLISH, invocation -> alerts.publish(invocation.payload()))
 *         .build();
 * StateMachine machine = StateMachine.builder("interlock", definition)
 *         .resources(resources)
 *         .clock(new ScaledRealClock(60))          // or new VirtualClock(start) in tests
 *         .build();
 * Execution execution = machine.start("name", "{\"pipelineId\":\"silver\"}");
 * ExecutionDescription done = execution.await(Duration.ofMinutes(1));
 * List<HistoryEvent> history = execution.history();
 * }</pre>
 *
 * <p>{@link dev.interlock.statemachine.engine.StateMachine} answers StartExecution, DescribeExecution,
 * ListExecutions, GetExecutionHistory and StopExecution; its records serialise with
 * {@link dev.interlock.statemachine.engine.EngineJson#mapper()} in the shapes the AWS JSON protocol uses.
 */
package dev.interlock.statemachine.engine;
