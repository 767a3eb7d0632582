package dev.interlock.runtime.priming;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;

/**
 * The credentials every AWS client signs with: the real provider's, except while {@linkplain OfflineMode#active()
 * priming}, when requests are signed with fixed placeholder credentials — priming's requests never leave the process,
 * and it must neither fetch nor cache real credentials in a SnapStart snapshot.
 */
public final class PrimingCredentialsProvider implements AwsCredentialsProvider {

    private static final AwsCredentials PLACEHOLDER =
            AwsBasicCredentials.create("INTERLOCKPRIMING", "interlock-priming");

    private final AwsCredentialsProvider delegate;
    private final OfflineMode offline;

    public PrimingCredentialsProvider(AwsCredentialsProvider delegate, OfflineMode offline) {
        this.delegate = delegate;
        this.offline = offline;
    }

    @Override
    public AwsCredentials resolveCredentials() {
        return offline.active() ? PLACEHOLDER : delegate.resolveCredentials();
    }
}
