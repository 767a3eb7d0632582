package dev.interlock.infra;

import dev.interlock.model.runtime.TableDefinition;
import java.util.List;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.dynamodb.Attribute;
import software.amazon.awscdk.services.dynamodb.AttributeType;
import software.amazon.awscdk.services.dynamodb.BillingMode;
import software.amazon.awscdk.services.dynamodb.GlobalSecondaryIndexProps;
import software.amazon.awscdk.services.dynamodb.ITable;
import software.amazon.awscdk.services.dynamodb.PointInTimeRecoverySpecification;
import software.amazon.awscdk.services.dynamodb.ProjectionType;
import software.amazon.awscdk.services.dynamodb.StreamViewType;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.dynamodb.TableAttributes;
import software.amazon.awscdk.services.dynamodb.TableEncryption;
import software.amazon.awscdk.services.iam.Effect;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.constructs.Construct;

/**
 * The one DynamoDB table, shaped by {@link TableDefinition#INTERLOCK}, and the grants on it that a function's
 * {@link FunctionProfile} lists. Its stream feeds {@link StreamRouting}.
 *
 * <p>With {@link DeploymentOptions#restoredTableStreamArn()} the stack creates no table: the functions, their grants
 * and the stream router use that existing table (one restored to a point in time) instead, under the same construct
 * id, and the stack's own table leaves the template (kept in the account when it was deletion protected).
 */
final class InterlockTable {

    static final TableDefinition DEFINITION = TableDefinition.INTERLOCK;

    private final ITable table;

    InterlockTable(Construct scope, DeploymentOptions options) {
        if (options.restoredTableStreamArn().isPresent()) {
            this.table = Table.fromTableAttributes(
                    scope,
                    "Table",
                    TableAttributes.builder()
                            .tableName(options.restoredTableName().orElseThrow())
                            .tableStreamArn(options.restoredTableStreamArn().get())
                            .build());
            return;
        }
        Table created = Table.Builder.create(scope, "Table")
                .partitionKey(stringKey(DEFINITION.partitionKey()))
                .sortKey(stringKey(DEFINITION.sortKey()))
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .pointInTimeRecoverySpecification(PointInTimeRecoverySpecification.builder()
                        .pointInTimeRecoveryEnabled(true)
                        .build())
                // KMS with the AWS managed key: encrypted at rest, and stream readers need no key grant.
                .encryption(TableEncryption.AWS_MANAGED)
                .deletionProtection(options.deletionProtection())
                // Deletion protection and retention go together: a protected deployment keeps its data when the
                // stack goes.
                .removalPolicy(options.deletionProtection() ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY)
                .timeToLiveAttribute(DEFINITION.ttlAttribute())
                .stream(StreamViewType.valueOf(DEFINITION.streamView().name()))
                .build();
        this.table = created;
        for (TableDefinition.GlobalIndex index : DEFINITION.globalIndexes()) {
            created.addGlobalSecondaryIndex(GlobalSecondaryIndexProps.builder()
                    .indexName(index.name())
                    .partitionKey(stringKey(index.partitionKey()))
                    .sortKey(stringKey(index.sortKey()))
                    .projectionType(ProjectionType.valueOf(index.projection().name()))
                    .build());
        }
    }

    ITable table() {
        return table;
    }

    /** Exactly the table and index actions the profile lists: the table's ARN for the one, each index's for the other. */
    void grant(IRole role, FunctionProfile profile) {
        if (!profile.tableActions().isEmpty()) {
            role.addToPrincipalPolicy(PolicyStatement.Builder.create()
                    .sid("InterlockTable")
                    .effect(Effect.ALLOW)
                    .actions(profile.tableActions())
                    .resources(List.of(table.getTableArn()))
                    .build());
        }
        if (!profile.indexActions().isEmpty()) {
            List<String> indexArns = DEFINITION.globalIndexes().stream()
                    .map(index -> table.getTableArn() + "/index/" + index.name())
                    .toList();
            role.addToPrincipalPolicy(PolicyStatement.Builder.create()
                    .sid("InterlockIndexes")
                    .effect(Effect.ALLOW)
                    .actions(profile.indexActions())
                    .resources(indexArns)
                    .build());
        }
    }

    private static Attribute stringKey(String name) {
        return Attribute.builder().name(name).type(AttributeType.STRING).build();
    }
}
