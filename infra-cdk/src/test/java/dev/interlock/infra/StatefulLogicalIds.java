package dev.interlock.infra;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The resources a CloudFormation replacement would hurt, found in a template by type. Their logical ids follow the
 * construct paths; a changed id makes the next {@code cdk deploy} of an existing stack create a new resource and
 * delete the old one. The tests pin the ids, so a refactoring that moves a construct fails here first.
 */
final class StatefulLogicalIds {

    /** Type → what a replacement would lose. */
    static final Map<String, String> STATEFUL_TYPES = Map.of(
            "AWS::DynamoDB::Table", "every registration, marker, lock and run log",
            "AWS::SQS::Queue", "the dead-lettered marker batches an operator has not read yet",
            "AWS::SNS::Topic", "the subscriptions on-call made to the alert topic outside the stack",
            "AWS::Logs::LogGroup", "the logs (every log group is removed with its resource)",
            "AWS::StepFunctions::StateMachine", "running executions and their history",
            "AWS::ApiGateway::RestApi", "the API's URL, which callers and the CLI are configured with",
            "AWS::ApiGateway::Stage", "the stage serving that URL",
            "AWS::ApiGateway::ApiKey", "the key value callers hold (API-key mode)",
            "AWS::Lambda::EventSourceMapping", "the stream position: a new mapping re-reads the stream from its start");

    private StatefulLogicalIds() {}

    /** Stateful type → the sorted logical ids of that type in the template. */
    static Map<String, List<String>> of(SynthesizedStack synth) {
        Map<String, List<String>> ids = new TreeMap<>();
        for (String type : STATEFUL_TYPES.keySet()) {
            List<String> found =
                    synth.resourcesOfType(type).keySet().stream().sorted().toList();
            if (!found.isEmpty()) {
                ids.put(type, found);
            }
        }
        return ids;
    }
}
