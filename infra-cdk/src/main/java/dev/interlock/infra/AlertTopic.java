package dev.interlock.infra;

import java.util.List;
import software.amazon.awscdk.services.iam.Effect;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.sns.Topic;
import software.constructs.Construct;

/** The SNS topic Interlock's alerts go to (SLA misses, failed jobs), and the one statement that may publish there. */
final class AlertTopic {

    private final Topic topic;

    AlertTopic(Construct scope) {
        this.topic = Topic.Builder.create(scope, "AlertTopic")
                .displayName("Interlock alerts")
                // The AWS managed SNS key: publishers are this stack's roles in this account, which the key policy
                // already admits through SNS; a customer key would add cost and key-policy upkeep for no reader.
                .masterKey(software.amazon.awscdk.services.kms.Alias.fromAliasName(
                        scope, "SnsManagedKey", "alias/aws/sns"))
                .enforceSsl(true)
                .build();
    }

    Topic topic() {
        return topic;
    }

    /** For the roles whose code publishes alerts: the functions whose profile says so, and the state machine. */
    PolicyStatement publishStatement() {
        return PolicyStatement.Builder.create()
                .sid("PublishAlerts")
                .effect(Effect.ALLOW)
                .actions(List.of("sns:Publish"))
                .resources(List.of(topic.getTopicArn()))
                .build();
    }
}
