package dev.interlock.model.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SecretHostsTest {

    private static final CredentialReference AIRFLOW_TOKEN =
            new CredentialReference.EnvironmentVariable("INTERLOCK_AIRFLOW_TOKEN");
    private static final CredentialReference DBX_TOKEN =
            new CredentialReference.EnvironmentVariable("INTERLOCK_DBX_TOKEN");
    private static final CredentialReference AIRFLOW_SECRET =
            new CredentialReference.SecretsManagerSecret("airflow/prod", "token");
    private static final CredentialReference PARAMETER = new CredentialReference.SsmParameter("/interlock/dbx/token");

    private final SecretHosts hosts = SecretHosts.parse(" INTERLOCK_AIRFLOW_*=airflow.example.com ; "
            + "secret:airflow/*=airflow.example.com,*.airflow.example.com;"
            + "ssm:/interlock/dbx/token=adb-123.azuredatabricks.net;");

    @Test
    void aCredentialGoesOnlyToTheHostsItsEntriesName() {
        assertThat(hosts.allows(AIRFLOW_TOKEN, "airflow.example.com")).isTrue();
        assertThat(hosts.allows(AIRFLOW_TOKEN, "AIRFLOW.example.com.")).isTrue();
        assertThat(hosts.allows(AIRFLOW_TOKEN, "evil.example.com")).isFalse();
        assertThat(hosts.allows(AIRFLOW_TOKEN, "airflow.example.com.evil.net")).isFalse();
        assertThat(hosts.allows(AIRFLOW_SECRET, "eu.airflow.example.com")).isTrue();
        assertThat(hosts.allows(AIRFLOW_SECRET, "xairflow.example.com")).isFalse();
        assertThat(hosts.allows(PARAMETER, "adb-123.azuredatabricks.net")).isTrue();
        assertThat(hosts.allows(
                        new CredentialReference.SsmParameter("/interlock/dbx/token2"), "adb-123.azuredatabricks.net"))
                .isFalse();
    }

    @Test
    void aCredentialNoEntryNamesGoesNowhere() {
        assertThat(hosts.allows(DBX_TOKEN, "airflow.example.com")).isFalse();
        assertThat(hosts.hostsFor(DBX_TOKEN)).isEmpty();
        assertThat(SecretHosts.NONE.allows(AIRFLOW_TOKEN, "airflow.example.com"))
                .isFalse();
        assertThat(SecretHosts.parse("  ").allows(AIRFLOW_TOKEN, "airflow.example.com"))
                .isFalse();
    }

    @Test
    void wildcardsForEveryCredentialAndEveryHost() {
        SecretHosts any = SecretHosts.parse(SecretHosts.ANY);
        assertThat(any.allows(PARAMETER, "127.0.0.1")).isTrue();
        assertThat(any.allows(AIRFLOW_TOKEN, "")).isFalse();
        SecretHosts loopback = SecretHosts.parse("*=127.0.0.1,::1");
        assertThat(loopback.allows(AIRFLOW_SECRET, "127.0.0.1")).isTrue();
        assertThat(loopback.allows(AIRFLOW_SECRET, "[::1]")).isTrue();
        assertThat(loopback.allows(AIRFLOW_SECRET, "localhost")).isFalse();
    }

    @Test
    void theHostsOfEveryMatchingEntryAreListedForMessages() {
        assertThat(hosts.hostsFor(AIRFLOW_SECRET)).containsExactly("airflow.example.com", "*.airflow.example.com");
    }

    @Test
    void malformedEntriesAreAllNamed() {
        assertThatThrownBy(() -> SecretHosts.parse("INTERLOCK_X;AWS_*=a.com;secret:x=;INTERLOCK_Y=bad_host!,ok.com"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'INTERLOCK_X' has no '=' (write <credential pattern>=<host>[,<host>…]); "
                        + "'AWS_*' is not a credential pattern (INTERLOCK_NAME, secret:name, ssm:/name, each optionally "
                        + "ending in *, or *); 'secret:x' names no host; "
                        + "'bad_host!' (for INTERLOCK_Y) is not a host name, an IP address, *.domain or *");
        assertThatThrownBy(() -> SecretHosts.parse("INTERLOCK_*X=a.com"))
                .hasMessageContaining("is not a credential pattern");
    }

    @org.junit.jupiter.api.Test
    void aNeverAllowedAddressIsRefusedAsACredentialHost() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> SecretHosts.parse("INTERLOCK_TOKEN=airflow.example.com,[fd00:ec2::254]"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'[fd00:ec2::254]' (for INTERLOCK_TOKEN): address fd00:ec2::254 is metadata and"
                        + " never allowed");
    }
}
