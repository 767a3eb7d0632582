package dev.interlock.deps.prime;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;

/**
 * The credentials every AWS client signs with: the real provider's, except while {@linkplain Priming#active()
 * priming}, when requests are signed with fixed placeholder credentials — priming's requests never leave the process,
 * and it must neither fetch nor cache real credentials in a SnapStart snapshot.
 */
public final class PrimingCredentialsProvider implements AwsCredentialsProvider {

    private static final AwsCredentials PLACEHOLDER = AwsBasicCredentials.create("INTERLOCKPRIMING", "interlock-priming");

    private final AwsCredentialsProvider delegate;

    public PrimingCredentialsProvider(AwsCredentialsProvider delegate) {
        this.delegate = delegate;
    }

    @Override
    public AwsCredentials resolveCredentials() {
        return Priming.active() ? PLACEHOLDER : delegate.resolveCredentials();
    }
}
