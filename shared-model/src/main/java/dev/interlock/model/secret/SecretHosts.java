package dev.interlock.model.secret;

import dev.interlock.model.net.NeverAllowedAddresses;
import java.net.IDN;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which hosts each credential may be sent to ({@code INTERLOCK_SECRET_HOSTS}): entries separated by {@code ;}, each
 * {@code <credential pattern>=<host pattern>[,<host pattern>…]}. A credential pattern is a reference's
 * {@link CredentialReference#selector() selector} ({@code INTERLOCK_AIRFLOW_TOKEN}, {@code secret:airflow/prod},
 * {@code ssm:/interlock/airflow/token}), the same with a trailing {@code *} for every selector starting with it
 * ({@code INTERLOCK_AIRFLOW_*}, {@code secret:airflow/*}), or {@code *} for every credential. A host pattern is a host
 * name or IP address, {@code *.example.com} for any name below {@code example.com} (not {@code example.com} itself),
 * or {@code *} for any host. Hosts are compared without port and case. Nothing matches by default: a credential that
 * no entry names may be sent nowhere.
 */
public final class SecretHosts {

    /** Nothing may be sent anywhere. */
    public static final SecretHosts NONE = new SecretHosts(List.of(), "");
    /** Every credential to every host: only for the local runtime, where every credential is a local stand-in. */
    public static final String ANY = "*=*";

    private static final Pattern SELECTOR_PATTERN =
            Pattern.compile("\\*|INTERLOCK_[A-Za-z0-9_]*\\*?|secret:[A-Za-z0-9/_+=.@-]*\\*?|ssm:[A-Za-z0-9_./-]*\\*?");
    private static final Pattern HOST_LABELS =
            Pattern.compile("(\\*\\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*");
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern IPV6 = Pattern.compile("\\[?[0-9a-f:.]+]?");

    private record Entry(String selector, List<String> hosts) {}

    private final List<Entry> entries;
    private final String text;

    private SecretHosts(List<Entry> entries, String text) {
        this.entries = List.copyOf(entries);
        this.text = text;
    }

    /**
     * Parses the allow-list.
     *
     * @throws IllegalArgumentException naming every malformed entry (the message quotes patterns, never values)
     */
    public static SecretHosts parse(String text) {
        if (text == null || text.isBlank()) {
            return NONE;
        }
        List<Entry> entries = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (String raw : text.split(";")) {
            String entry = raw.trim();
            if (entry.isEmpty()) {
                continue;
            }
            int eq = entry.indexOf('=');
            if (eq < 0) {
                problems.add("'" + entry + "' has no '=' (write <credential pattern>=<host>[,<host>…])");
                continue;
            }
            String selector = entry.substring(0, eq).trim();
            if (!SELECTOR_PATTERN.matcher(selector).matches()) {
                problems.add(
                        "'" + selector + "' is not a credential pattern (INTERLOCK_NAME, secret:name, ssm:/name, each "
                                + "optionally ending in *, or *)");
                continue;
            }
            List<String> hosts = new ArrayList<>();
            for (String h : entry.substring(eq + 1).split(",")) {
                String host = normalise(h);
                if (host.isEmpty()) {
                    continue;
                }
                if (!host.equals("*")
                        && !HOST_LABELS.matcher(host).matches()
                        && !IPV4.matcher(host).matches()
                        && !(host.indexOf(':') >= 0 && IPV6.matcher(host).matches())) {
                    problems.add("'" + h.trim() + "' (for " + selector
                            + ") is not a host name, an IP address, *.domain or *");
                    continue;
                }
                String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
                Optional<String> neverAllowed = NeverAllowedAddresses.literalProblem(bare);
                if (neverAllowed.isPresent()) {
                    problems.add("'" + h.trim() + "' (for " + selector + "): " + neverAllowed.get());
                    continue;
                }
                hosts.add(host);
            }
            if (hosts.isEmpty()) {
                problems.add("'" + selector + "' names no host");
                continue;
            }
            entries.add(new Entry(selector, hosts));
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        return new SecretHosts(entries, text.trim());
    }

    /** Whether {@code reference} may be sent in a request to {@code host}. */
    public boolean allows(CredentialReference reference, String host) {
        String target = normalise(host);
        for (Entry entry : entries) {
            if (matchesSelector(entry.selector(), reference.selector())) {
                for (String pattern : entry.hosts()) {
                    if (matchesHost(pattern, target)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** The host patterns any entry gives {@code reference}, for error messages (empty: no entry names it). */
    public List<String> hostsFor(CredentialReference reference) {
        List<String> hosts = new ArrayList<>();
        for (Entry entry : entries) {
            if (matchesSelector(entry.selector(), reference.selector())) {
                entry.hosts().stream().filter(h -> !hosts.contains(h)).forEach(hosts::add);
            }
        }
        return hosts;
    }

    /** Whether some credential may be sent to every host (a {@code *} host pattern). */
    public boolean sendsAnywhere() {
        return entries.stream().anyMatch(e -> e.hosts().contains("*"));
    }

    /** The list as configured (it names credentials and hosts, never values). */
    @Override
    public String toString() {
        return text;
    }

    private static boolean matchesSelector(String pattern, String selector) {
        if (pattern.endsWith("*")) {
            return selector.startsWith(pattern.substring(0, pattern.length() - 1));
        }
        return pattern.equals(selector);
    }

    private static boolean matchesHost(String pattern, String host) {
        if (pattern.equals("*")) {
            return !host.isEmpty();
        }
        if (pattern.startsWith("*.")) {
            String domain = pattern.substring(1);
            return host.endsWith(domain) && host.length() > domain.length();
        }
        return pattern.equals(host);
    }

    /** Lower case, no trailing dot, IDN names in their ASCII form, IPv6 without brackets. */
    private static String normalise(String host) {
        String h = host == null ? "" : host.trim().toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        if (h.chars().anyMatch(c -> c > 127)) {
            String wildcard = h.startsWith("*.") ? "*." : "";
            try {
                h = wildcard + IDN.toASCII(h.substring(wildcard.length()));
            } catch (IllegalArgumentException e) {
                return h;
            }
        }
        return h;
    }
}
