package dev.interlock.runtime.outbound;

import dev.interlock.model.run.FailureCategory;
import dev.interlock.runtime.aws.AwsClients;
import dev.interlock.runtime.aws.AwsFailures;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.secretsmanager.model.GetSecretValueResponse;
import software.amazon.awssdk.services.ssm.model.Parameter;

/**
 * Secrets Manager {@code GetSecretValue} and SSM {@code GetParameter} (with decryption) through the function's lazy
 * clients. Its own class, loaded only when a secret or parameter is read, so functions that ship neither client never
 * load their classes.
 */
final class AwsCredentialStore implements CredentialResolver.Store {

    private final AwsClients aws;

    AwsCredentialStore(AwsClients aws) {
        this.aws = aws;
    }

    @Override
    public String secretString(String name) throws OutboundException.CredentialUnavailable {
        GetSecretValueResponse response;
        try {
            response = aws.secretsManager().getSecretValue(r -> r.secretId(name));
        } catch (SdkException e) {
            throw unavailable("Secrets Manager secret '" + name + "'", "secretsmanager:GetSecretValue", e);
        }
        if (response.secretString() == null) {
            if (aws.offline().active()) {
                return CredentialResolver.PRIMING_VALUE;
            }
            throw CredentialResolver.permanent("Secrets Manager secret '" + name + "' has no SecretString "
                    + "(binary secrets cannot be sent in a request)");
        }
        return response.secretString();
    }

    @Override
    public String parameter(String name) throws OutboundException.CredentialUnavailable {
        Parameter parameter;
        try {
            parameter = aws.ssm()
                    .getParameter(r -> r.name(name).withDecryption(true))
                    .parameter();
        } catch (SdkException e) {
            throw unavailable("SSM parameter '" + name + "'", "ssm:GetParameter", e);
        }
        if (parameter == null || parameter.value() == null) {
            if (aws.offline().active()) {
                return CredentialResolver.PRIMING_VALUE;
            }
            throw CredentialResolver.permanent("SSM parameter '" + name + "' has no value");
        }
        return parameter.value();
    }

    /**
     * A typed failure: not found and access denied are PERMANENT (the error code names which; the service's message is
     * not kept, as a message is free text), throttling and network trouble TRANSIENT — {@link AwsFailures} decides.
     */
    private static OutboundException.CredentialUnavailable unavailable(String what, String action, SdkException e) {
        FailureCategory category = AwsFailures.classify(e);
        String reason;
        if (e instanceof AwsServiceException service
                && service.awsErrorDetails() != null
                && service.awsErrorDetails().errorCode() != null) {
            String code = service.awsErrorDetails().errorCode();
            reason = switch (code) {
                case "ResourceNotFoundException", "ParameterNotFound" -> "does not exist";
                case "AccessDeniedException" ->
                    "cannot be read: access denied (the function's role may call " + action
                            + " only on the configured name prefix)";
                default -> "cannot be read: " + code + " (status " + service.statusCode() + ")";
            };
        } else {
            reason = "cannot be read: " + e.getClass().getSimpleName();
        }
        return new OutboundException.CredentialUnavailable(what + " " + reason, category, null);
    }
}
