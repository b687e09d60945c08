package io.sqlagent.security.rest;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import jakarta.validation.Validator;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response.Status;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import io.sqlagent.Caller;
import io.sqlagent.http.ErrorBody;
import io.sqlagent.http.JsonBodies;
import io.sqlagent.http.OnWrongType;
import io.sqlagent.http.StrictBodies;
import io.sqlagent.security.ApiKeyIdentityProvider;
import io.sqlagent.security.ApiKeyStore;
import io.sqlagent.security.ApiKeys;
import io.sqlagent.security.AuthConfig;
import io.sqlagent.security.CallerResolver;

/**
 * {@code /api/keys}: API keys for programs, managed by a caller with scope {@code admin}. The key
 * is shown once, when it is created; afterwards only its name, scopes and attributes.
 */
@Path("/api/keys")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Access")
public class ApiKeyResource {

    static final String ADMIN = "admin";

    private final ApiKeyStore keys;
    private final AuthConfig config;
    private final SecurityIdentity caller;
    private final CallerResolver callers;
    private final Validator validator;

    ApiKeyResource(ApiKeyStore keys, AuthConfig config, SecurityIdentity caller, CallerResolver callers,
            Validator validator) {
        this.keys = keys;
        this.config = config;
        this.caller = caller;
        this.callers = callers;
        this.validator = validator;
    }

    /** What {@code POST /api/keys} takes, with what each field must be ({@link StrictBodies#bind}). */
    @OnWrongType("invalid_body: The body must be a JSON object {\"name\", \"scopes\"}")
    public record NewKey(
            @Schema(required = true, description = "A unique name: letters, digits, '.', '_', '-' (at most 64)", example = "reporting") @OnWrongType(INVALID_NAME) @NotNull(message = INVALID_NAME) @Pattern(regexp = NAME, message = INVALID_NAME) @Pattern(regexp = NOT_BOOTSTRAP, message = BOOTSTRAP_NAME) String name,
            @Schema(required = true, description = "The scopes the key grants", example = "[\"sql:read\"]") @OnWrongType(INVALID_SCOPES) @NotNull(message = INVALID_SCOPES) @Size(min = 1, max = MAX_SCOPES, message = INVALID_SCOPES) List<@NotNull(message = INVALID_SCOPE) @Pattern(regexp = SCOPE, message = INVALID_SCOPE) String> scopes,
            @Schema(description = "Attributes of the caller, e.g. the database role a source maps it to", example = "{\"pg_role\": \"support_rep_3\"}") @OnWrongType(INVALID_ATTRIBUTES) @Size(max = MAX_ATTRIBUTES, message = INVALID_ATTRIBUTES) Map<@Pattern(regexp = ATTRIBUTE, message = INVALID_ATTRIBUTE_NAME) String, @NotNull(message = INVALID_ATTRIBUTE) @Size(max = MAX_ATTRIBUTE_CHARS, message = INVALID_ATTRIBUTE) @Pattern(regexp = NO_NUL, message = INVALID_ATTRIBUTE) String> attributes) {
    }

    private static final String NAME = "[A-Za-z0-9][A-Za-z0-9._-]{0,63}";
    private static final String NOT_BOOTSTRAP = "(?!" + ApiKeyIdentityProvider.BOOTSTRAP_NAME + "\\z)(?s).*";
    private static final String SCOPE = "[A-Za-z0-9][A-Za-z0-9:._*-]{0,99}";
    private static final String ATTRIBUTE = "[A-Za-z_][A-Za-z0-9_.-]{0,63}";
    /** No NUL and no half of a surrogate pair: what PostgreSQL text cannot hold (a pair is one code point and passes). */
    private static final String NO_NUL = "[^\\x00\\x{D800}-\\x{DFFF}]*";
    private static final int MAX_SCOPES = 50;
    private static final int MAX_ATTRIBUTES = 20;
    private static final int MAX_ATTRIBUTE_CHARS = 256;
    private static final String INVALID_NAME = "invalid_name: name must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit";
    private static final String BOOTSTRAP_NAME = "invalid_name: The name 'bootstrap' is the bootstrap key's (sqlagent.auth.bootstrap-key)";
    private static final String INVALID_SCOPES = "invalid_scopes: scopes must be an array of 1 to 50 scope names, e.g. [\"sql:read\"]";
    private static final String INVALID_SCOPE = "invalid_scopes: scope {invalid} is not a scope name of at most 100 characters (letters, digits, ':', '.', '_', '*', '-')";
    private static final String INVALID_ATTRIBUTES = "invalid_attributes: attributes must be an object of at most 20 names to strings, such as pg_role to support_rep_3";
    private static final String INVALID_ATTRIBUTE_NAME = "invalid_attributes: attribute name {invalid} must be letters, digits, '_', '.', '-' (at most 64), starting with a letter or '_'";
    private static final String INVALID_ATTRIBUTE = "invalid_attributes: an attribute must be a string of at most 256 characters, without NUL or half of a surrogate pair";

    /** What {@code POST /api/keys} answers: the only time the key is shown. */
    public record CreatedKey(String name, String principal, String key, List<String> scopes) {
    }

    @POST
    @Consumes(MediaType.WILDCARD) // io.sqlagent.http.EdgeFilter refuses a body that is not JSON with the house error
    @Operation(summary = "Create an API key", description = "Body {\"name\", \"scopes\": [...], \"attributes\"?: {...}}. Answers 201 "
            + "{\"name\", \"principal\", \"key\", \"scopes\"} (principal: key:<key id>, the owner of what the key does): the key is shown this once, stored only as a hash. Needs scope admin.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = NewKey.class), examples = {
            @ExampleObject(name = "reader", summary = "A key that may read", value = "{\"name\": \"reporting\", \"scopes\": [\"sql:read\", \"knowledge:read\"]}") }))
    @APIResponse(responseCode = "201", description = "The new key")
    @APIResponse(responseCode = "400", description = "Malformed body, bad name, scopes or attributes", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "401", description = "No valid credential", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "403", description = "The caller lacks scope admin", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "409", description = "A key of this name exists", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ErrorBody.class)))
    public Uni<RestResponse<Object>> create(byte[] body) {
        Optional<RestResponse<Object>> forbidden = forbidden();
        if (forbidden.isPresent()) {
            return Uni.createFrom().item(forbidden.get());
        }
        NewKey request;
        try {
            // Bound here rather than as a parameter: a caller who may not manage keys hears 403, whatever it sent.
            request = StrictBodies.bind(body, NewKey.class, validator);
        } catch (JsonBodies.BadBody bad) {
            return Uni.createFrom().item(RestResponse.status(Status.BAD_REQUEST, bad.error()));
        }
        List<String> scopes = List.copyOf(new LinkedHashSet<>(request.scopes()));
        Map<String, String> attributes = request.attributes() == null ? Map.of() : new TreeMap<>(request.attributes());
        ApiKeys.Issued issued = ApiKeys.issue();
        return keys.create(request.name(), issued, scopes, attributes, callers.of(caller).name())
                .map(created -> created
                        ? RestResponse.status(Status.CREATED,
                                new CreatedKey(request.name(), Caller.KEY + issued.keyId(), issued.key(), scopes))
                        : RestResponse.status(Status.CONFLICT, ErrorBody.of("key_exists",
                                "A key named '" + request.name() + "' exists; delete it first or choose another name")));
    }

    @GET
    @Operation(summary = "List the API keys", description = "[{name, principal, scopes, attributes, created_by, created_at, last_used_at}], never a key. Needs scope admin.")
    @APIResponse(responseCode = "200", description = "The keys")
    @APIResponse(responseCode = "403", description = "The caller lacks scope admin", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ErrorBody.class)))
    public Uni<RestResponse<Object>> list() {
        Optional<RestResponse<Object>> forbidden = forbidden();
        if (forbidden.isPresent()) {
            return Uni.createFrom().item(forbidden.get());
        }
        return keys.list().map(all -> RestResponse.ok(all.stream().map(ApiKeyResource::view).toList()));
    }

    @DELETE
    @Path("{name}")
    @Operation(summary = "Revoke an API key", description = "The key is refused from the next request on. Needs scope admin.")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "403", description = "The caller lacks scope admin", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "404", description = "No key has this name", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ErrorBody.class)))
    public Uni<RestResponse<Object>> delete(@PathParam("name") String name) {
        Optional<RestResponse<Object>> forbidden = forbidden();
        if (forbidden.isPresent()) {
            return Uni.createFrom().item(forbidden.get());
        }
        return keys.delete(name).map(deleted -> deleted
                ? RestResponse.noContent()
                : RestResponse.status(Status.NOT_FOUND, ErrorBody.of("key_not_found", "No API key is named '"
                        + (name.length() > 64 ? name.substring(0, 64) + "…" : name) + "'")));
    }

    /** In mode none everyone may; otherwise only a caller with scope admin. */
    private Optional<RestResponse<Object>> forbidden() {
        if (!config.required() || caller.hasRole(ADMIN)) {
            return Optional.empty();
        }
        return Optional.of(RestResponse.status(Status.FORBIDDEN,
                ErrorBody.of("forbidden", "Managing API keys needs scope admin, which " + callers.of(caller).name()
                        + " does not have")));
    }

    private static Map<String, Object> view(ApiKeyStore.StoredKey key) {
        Map<String, Object> view = new java.util.LinkedHashMap<>();
        view.put("name", key.name());
        view.put("principal", Caller.KEY + key.keyId());
        view.put("scopes", key.scopes());
        view.put("attributes", key.attributes());
        view.put("created_by", key.createdBy());
        view.put("created_at", key.createdAt());
        view.put("last_used_at", key.lastUsedAt());
        return view;
    }
}
