package io.sqlagent.sql.source;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.sqlagent.Caller;
import io.sqlagent.tool.ToolForbiddenException;

/**
 * Who a caller's statements run as on a source: with {@code sqlagent.sources.<name>.role-claim}
 * set, the source's database role its claim (or API-key attribute) names (a PostgreSQL, MySQL or MariaDB
 * role, as the source's engine is), when that role is one of {@code allowed-roles}; and always, for a
 * caller with an identity, an {@code application_name} naming the principal (PostgreSQL only), so
 * {@code pg_stat_activity} and the server's log show who asked. The server's own GRANTs (and PostgreSQL's
 * row-level security policies) then decide what the caller's questions see. The unrestricted caller
 * (authentication off, or the service itself) runs as today: the source's own user, nothing set.
 */
@ApplicationScoped
public class SessionIdentity {

    /**
     * What the transaction sets. Both are passed to {@code set_config} as bound values, never
     * spliced into SQL text.
     *
     * @param role the role to act as, already checked against the allow list
     * @param applicationName what {@code application_name} is set to
     */
    public record Settings(Optional<String> role, String applicationName) {
    }

    /** PostgreSQL keeps the first 63 bytes of a name. */
    private static final int MAX_NAME_BYTES = 63;

    private final SourcesConfig config;

    SessionIdentity(SourcesConfig config) {
        this.config = config;
    }

    /**
     * The settings of {@code caller}'s statements on {@code source}: empty for the unrestricted
     * caller.
     *
     * @throws ToolForbiddenException when the source maps callers to roles and this caller has no
     *         role claim, or names a role outside the allow list
     */
    public Optional<Settings> of(String source, Caller caller) {
        if (caller.unrestricted()) {
            return Optional.empty();
        }
        String applicationName = applicationName(caller.name());
        SourcesConfig.Source settings = config.all().get(source);
        if (settings == null || settings.roleClaim().isEmpty()) {
            return Optional.of(new Settings(Optional.empty(), applicationName));
        }
        String claim = settings.roleClaim().get();
        String prefix = "sqlagent.sources." + source + ".";
        String role = caller.attribute(claim).orElseThrow(() -> new ToolForbiddenException("Source '" + source
                + "' runs each caller's statements as the " + roleKind(settings) + " its '" + claim + "' claim names (" + prefix
                + "role-claim), and caller '" + caller.name() + "' has no such claim"));
        List<String> allowed = settings.allowedRoles().orElse(List.of());
        // The value is compared as data with the configured names; only an exact match is used.
        if (!allowed.contains(role)) {
            throw new ToolForbiddenException("Caller '" + caller.name() + "' names the " + roleKind(settings) + " '" + cut(role)
                    + "' (claim '" + claim + "'), which source '" + source + "' does not allow ("
                    + prefix + "allowed-roles" + (allowed.isEmpty() ? " is empty" : "") + ")");
        }
        return Optional.of(new Settings(Optional.of(role), applicationName));
    }

    /**
     * What a role is on the source's server, for messages: "MariaDB role", "PostgreSQL role", or "database role"
     * when the URL names no engine (such a source is refused before any statement anyway).
     */
    static String roleKind(SourcesConfig.Source settings) {
        try {
            return Engines.displayName(Engines.forUrl(settings.url())) + " role";
        } catch (IllegalArgumentException noEngine) {
            return "database role";
        }
    }

    /** {@code sqlagent <principal>}, cut to what PostgreSQL keeps, on a character boundary. */
    static String applicationName(String principal) {
        String name = "sqlagent " + principal;
        while (name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
            name = name.substring(0, name.length() - 1);
        }
        return name;
    }

    private static String cut(String text) {
        return text.length() <= 64 ? text : text.substring(0, 64) + "…";
    }
}
