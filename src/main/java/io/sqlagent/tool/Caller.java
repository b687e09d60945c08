package io.sqlagent.tool;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Who is calling, as the service's access rules see it: a principal name, the scopes it holds and
 * the claims (OIDC) or attributes (API key) that may name its database role. Built from the
 * request's {@code SecurityIdentity} by {@link Callers}; carried with every tool call in
 * {@link io.sqlagent.tool.ToolCallContext}.
 *
 * @param name the principal: the OIDC user's preferred name or subject, {@code key:<name>} for an
 *        API key, {@code anonymous} when authentication is off
 * @param scopes the scopes it holds (the identity's roles)
 * @param unrestricted every scope and no database role mapping: the anonymous caller while
 *        {@code sqlagent.auth.mode=none}, and the service's own calls
 * @param attributes string claims of the token, or the API key's attributes, by name
 */
public record Caller(String name, Set<String> scopes, boolean unrestricted, Map<String, String> attributes) {

    /** Name of the caller while authentication is off. */
    public static final String ANONYMOUS = "anonymous";

    /** The scope that grants every tool and the admin endpoints. */
    public static final String ADMIN = "admin";

    public Caller {
        scopes = Set.copyOf(scopes);
        attributes = Map.copyOf(attributes);
    }

    /** An authenticated caller with these scopes and attributes. */
    public static Caller of(String name, Set<String> scopes, Map<String, String> attributes) {
        return new Caller(name, scopes, false, attributes);
    }

    /** The anonymous caller of {@code sqlagent.auth.mode=none}: nothing is refused. */
    public static Caller anonymous() {
        return new Caller(ANONYMOUS, Set.of(), true, Map.of());
    }

    /** The service itself (start-up work, tests, benchmarks): nothing is refused. */
    public static Caller service() {
        return new Caller("sqlagent", Set.of(), true, Map.of());
    }

    /** An anonymous caller while authentication is on: no scope at all. */
    public static Caller unauthenticated() {
        return new Caller(ANONYMOUS, Set.of(), false, Map.of());
    }

    /** The claim (token) or attribute (API key) of this name, when the identity carries it as text. */
    public Optional<String> attribute(String claimOrAttributeName) {
        return Optional.ofNullable(attributes.get(claimOrAttributeName));
    }

    /** Whether the caller holds {@code scope} (the unrestricted caller and {@code admin} hold every one). */
    public boolean has(String scope) {
        return unrestricted || scopes.contains(ADMIN) || scopes.contains(scope);
    }
}
