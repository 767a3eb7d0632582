package dev.interlock.runtime.aws;

import dev.interlock.model.runtime.EnvVar;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.emr.EmrClient;
import software.amazon.awssdk.services.emrserverless.EmrServerlessClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * One tiny class per AWS service that builds its client. Keeping each builder call in its own class means the JVM
 * loads a service's classes only when that client is first created — so a function's jar can leave out the
 * service jars it never uses (the orchestrator ships no Glue, the API only DynamoDB) without failing to load
 * {@link AwsClients}.
 */
final class ServiceClientFactories {

    private ServiceClientFactories() {}

    static final class DynamoDb {
        private DynamoDb() {}

        static DynamoDbClient create(AwsClients c) {
            return c.configure(DynamoDbClient.builder(), EnvVar.INTERLOCK_ENDPOINT_DYNAMODB)
                    .build();
        }
    }

    static final class StepFunctions {
        private StepFunctions() {}

        static SfnClient create(AwsClients c) {
            return c.configure(SfnClient.builder(), EnvVar.INTERLOCK_ENDPOINT_STEPFUNCTIONS)
                    .build();
        }
    }

    static final class Glue {
        private Glue() {}

        static GlueClient create(AwsClients c) {
            return c.configure(GlueClient.builder(), EnvVar.INTERLOCK_ENDPOINT_GLUE)
                    .build();
        }
    }

    static final class Logs {
        private Logs() {}

        static CloudWatchLogsClient create(AwsClients c) {
            return c.configure(CloudWatchLogsClient.builder(), EnvVar.INTERLOCK_ENDPOINT_LOGS)
                    .build();
        }
    }

    static final class Emr {
        private Emr() {}

        static EmrClient create(AwsClients c) {
            return c.configure(EmrClient.builder(), EnvVar.INTERLOCK_ENDPOINT_EMR)
                    .build();
        }
    }

    static final class EmrServerless {
        private EmrServerless() {}

        static EmrServerlessClient create(AwsClients c) {
            return c.configure(EmrServerlessClient.builder(), EnvVar.INTERLOCK_ENDPOINT_EMR_SERVERLESS)
                    .build();
        }
    }

    static final class Lambda {
        private Lambda() {}

        static LambdaClient create(AwsClients c) {
            return c.configure(LambdaClient.builder(), EnvVar.INTERLOCK_ENDPOINT_LAMBDA)
                    .build();
        }
    }

    static final class Sns {
        private Sns() {}

        static SnsClient create(AwsClients c) {
            return c.configure(SnsClient.builder(), EnvVar.INTERLOCK_ENDPOINT_SNS)
                    .build();
        }
    }

    static final class SecretsManager {
        private SecretsManager() {}

        static SecretsManagerClient create(AwsClients c) {
            return c.configure(SecretsManagerClient.builder(), EnvVar.INTERLOCK_ENDPOINT_SECRETSMANAGER)
                    .build();
        }
    }

    static final class Ssm {
        private Ssm() {}

        static SsmClient create(AwsClients c) {
            return c.configure(SsmClient.builder(), EnvVar.INTERLOCK_ENDPOINT_SSM)
                    .build();
        }
    }

    static final class EventBridge {
        private EventBridge() {}

        static EventBridgeClient create(AwsClients c) {
            return c.configure(EventBridgeClient.builder(), EnvVar.INTERLOCK_ENDPOINT_EVENTS)
                    .build();
        }
    }
}
