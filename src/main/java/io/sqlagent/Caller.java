package io.sqlagent;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Who is calling, as the service's access rules see it: a principal name, the scopes it holds and
 * the claims (OIDC) or attributes (API key) that may name its database role. Built from the
 * request's {@code SecurityIdentity} by {@link io.sqlagent.security.CallerResolver}; carried with every tool call in
 * {@link io.sqlagent.tool.ToolCallContext}.
 *
 * <p>
 * The principal id says its kind before the first colon, so no kind can produce another's id:
 * {@code oidc:<issuer>#<subject>} for an OIDC token (its {@code iss} and {@code sub} claims, never
 * a name the user may choose), {@code key:<key id>} for an API key (the 12 hex digits of its id;
 * {@code key:bootstrap} for the bootstrap key), {@code internal:<what>} for the service's own work,
 * and {@code anonymous} while authentication is off. docs/security.md describes the format.
 *
 * @param name the principal id, in the format above; every owner the store keeps is one
 * @param scopes the scopes it holds (the identity's roles)
 * @param unrestricted every scope and no database role mapping: the anonymous caller while
 *        {@code sqlagent.auth.mode=none}, and the service's own calls
 * @param attributes string claims of the token, or the API key's attributes, by name
 * @param alias another name settings may give this principal ({@code key:<name>} of an API key, whose
 *        name an admin chose and the store keeps unique), else the id itself; never an owner
 */
public record Caller(String name, Set<String> scopes, boolean unrestricted, Map<String, String> attributes, String alias) {

    /** Name of the caller while authentication is off. */
    public static final String ANONYMOUS = "anonymous";

    /** The prefix of OIDC principal ids. */
    public static final String OIDC = "oidc:";

    /** The prefix of API-key principal ids. */
    public static final String KEY = "key:";

    /** The prefix of the service's own principals, which no credential produces. */
    public static final String INTERNAL = "internal:";

    /** The scope that grants every tool and the admin endpoints. */
    public static final String ADMIN = "admin";

    public Caller {
        scopes = Set.copyOf(scopes);
        attributes = Map.copyOf(attributes);
        alias = alias == null ? name : alias;
    }

    /** A caller that settings know by its id only. */
    public Caller(String name, Set<String> scopes, boolean unrestricted, Map<String, String> attributes) {
        this(name, scopes, unrestricted, attributes, name);
    }

    /** An authenticated caller with these scopes and attributes. */
    public static Caller of(String name, Set<String> scopes, Map<String, String> attributes) {
        return new Caller(name, scopes, false, attributes);
    }

    /** One of the service's own principals, {@code internal:<what>}: nothing is refused. */
    public static Caller internal(String what) {
        return new Caller(INTERNAL + what, Set.of(), true, Map.of());
    }

    /** The anonymous caller of {@code sqlagent.auth.mode=none}: nothing is refused. */
    public static Caller anonymous() {
        return new Caller(ANONYMOUS, Set.of(), true, Map.of());
    }

    /** The service itself (start-up work, tests, benchmarks): nothing is refused. */
    public static Caller service() {
        return internal("service");
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
