package io.sqlagent.rest;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response.Status;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.smallrye.mutiny.Uni;
import io.sqlagent.Caller;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.StorableText;
import io.sqlagent.http.ErrorBody;
import io.sqlagent.security.CallerResolver;
import io.sqlagent.store.StoreMigrations;
import io.sqlagent.store.StoreSchemaUnavailableException;
import io.sqlagent.tool.Outcome;
import io.vertx.ext.web.RoutingContext;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * {@code GET /api/audit}: the audit log of tool calls (REST, MCP and the agent's), newest first, in
 * pages, filtered by principal, tool, outcome and time. Scope {@code admin}. Records are written
 * behind the calls, within {@code sqlagent.audit.flush-interval}.
 */
@Path("/api/audit")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Audit", description = "Who called which tool, when, and how it ended")
public class AuditResource {

    /** A page of the audit log: the WHERE clause ({@code %s}) and the position of the LIMIT parameter ({@code %d}). */
    private static final String PAGE = """
            SELECT id, called_at, caller, principal, conversation_id, call_id, tool, outcome, duration_us, result_bytes, message,
                   trace_id
            FROM tool_call_audit%s
            ORDER BY id DESC LIMIT $%d""";

    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;
    private static final Set<String> OUTCOMES = Stream.of(Outcome.values()).map(Outcome::tag).collect(Collectors.toSet());

    private final Pool store;
    private final StoreMigrations migrations;
    private final CallerResolver callers;

    AuditResource(Pool store, StoreMigrations migrations, CallerResolver callers) {
        this.store = store;
        this.migrations = migrations;
        this.callers = callers;
    }

    @GET
    @Operation(summary = "Read the audit log", description = "{items:[{id, called_at, caller, principal, conversation_id, call_id, tool, outcome, "
            + "duration_us, result_bytes, message, trace_id}], next}: newest first; pass next as before for the following page (null on the last). Scope admin.")
    @APIResponse(responseCode = "200", description = "One page of audit records")
    @APIResponse(responseCode = "400", description = "A filter that is not valid (unknown outcome, a time that is not ISO-8601, limit outside 1..500, a bad before)", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "403", description = "The caller lacks scope admin", content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    public Uni<RestResponse<Object>> list(
            @Parameter(description = "only calls of this principal") @QueryParam("principal") String principal,
            @Parameter(description = "only calls of this tool") @QueryParam("tool") String tool,
            @Parameter(description = "only calls that ended so: success, failure, invalid_arguments, blocked, forbidden, ...") @QueryParam("outcome") String outcome,
            @Parameter(description = "only calls at or after this instant (ISO-8601, e.g. 2026-01-31T12:00:00Z)") @QueryParam("from") String from,
            @Parameter(description = "only calls before this instant (ISO-8601)") @QueryParam("to") String to,
            @Parameter(description = "records per page, 1..500 (default 50)") @QueryParam("limit") String limit,
            @Parameter(description = "the next cursor of the previous page") @QueryParam("before") String before,
            @Context RoutingContext http) {
        return callers.of(http).flatMap(caller -> {
            if (!caller.has(Caller.ADMIN)) {
                return Uni.createFrom().item(RestResponse.status(Status.FORBIDDEN, ErrorBody.of("forbidden",
                        "Reading the audit log needs scope 'admin', which caller '" + caller.name() + "' does not have")));
            }
            try {
                return query(principal, tool, outcome, from, to, limit, before);
            } catch (BadFilter e) {
                return Uni.createFrom()
                        .item(RestResponse.status(Status.BAD_REQUEST, ErrorBody.of("invalid_filter", e.getMessage())));
            }
        });
    }

    private static final class BadFilter extends RuntimeException {
        BadFilter(String message) {
            super(message, null, false, false);
        }
    }

    private Uni<RestResponse<Object>> query(String principal, String tool, String outcome, String from, String to, String limit,
            String before) {
        int size = size(limit);
        List<String> conditions = new ArrayList<>();
        Tuple values = Tuple.tuple();
        // The log keeps what PostgreSQL cannot store (NUL, half a surrogate pair) as U+FFFD: a filter is cleaned the same
        // way, so it finds those records instead of failing the query.
        if (present(principal)) {
            values.addString(StorableText.clean(principal));
            conditions.add("principal = $" + values.size());
        }
        if (present(tool)) {
            values.addString(StorableText.clean(tool));
            conditions.add("tool = $" + values.size());
        }
        if (present(outcome)) {
            String tag = outcome.strip().toLowerCase(Locale.ROOT);
            if (!OUTCOMES.contains(tag)) {
                throw new BadFilter("Unknown outcome '" + cut(outcome) + "'; use one of " + String.join(", ",
                        Stream.of(Outcome.values()).map(Outcome::tag).toList()));
            }
            values.addString(tag);
            conditions.add("outcome = $" + values.size());
        }
        if (present(from)) {
            values.addOffsetDateTime(instant("from", from).atOffset(ZoneOffset.UTC));
            conditions.add("called_at >= $" + values.size());
        }
        if (present(to)) {
            values.addOffsetDateTime(instant("to", to).atOffset(ZoneOffset.UTC));
            conditions.add("called_at < $" + values.size());
        }
        if (present(before)) {
            long id;
            try {
                id = Long.parseLong(before.strip());
            } catch (NumberFormatException e) {
                throw new BadFilter("before must be the next value of a previous page, as given");
            }
            values.addLong(id);
            conditions.add("id < $" + values.size());
        }
        values.addInteger(size + 1);
        // The conditions are this method's own fixed texts with numbered parameters; values are bound.
        String sql = PAGE.formatted(conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions), values.size());
        if (!migrations.ready()) {
            return Uni.createFrom().failure(new StoreSchemaUnavailableException());
        }
        return store.preparedQuery(sql).execute(values).map(rows -> {
            ObjectNode body = SnakeCaseJson.MAPPER.createObjectNode();
            var items = body.putArray("items");
            Long last = null;
            int count = 0;
            for (Row row : rows) {
                if (count++ == size) {
                    break;
                }
                last = row.getLong("id");
                items.addObject()
                        .put("id", last)
                        .put("called_at", row.getOffsetDateTime("called_at").toInstant().toString())
                        .put("caller", row.getString("caller"))
                        .put("principal", row.getString("principal"))
                        .put("conversation_id", row.getString("conversation_id"))
                        .put("call_id", row.getString("call_id"))
                        .put("tool", row.getString("tool"))
                        .put("outcome", row.getString("outcome"))
                        .put("duration_us", row.getLong("duration_us"))
                        .put("result_bytes", row.getInteger("result_bytes"))
                        .put("message", row.getString("message"))
                        .put("trace_id", row.getString("trace_id"));
            }
            if (rows.size() > size && last != null) {
                body.put("next", String.valueOf(last));
            } else {
                body.putNull("next");
            }
            return RestResponse.ok(body);
        });
    }

    private static int size(String limit) {
        if (limit == null) {
            return DEFAULT_LIMIT;
        }
        try {
            int size = Integer.parseInt(limit.strip());
            if (size >= 1 && size <= MAX_LIMIT) {
                return size;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new BadFilter("limit must be a whole number from 1 to " + MAX_LIMIT);
    }

    private static Instant instant(String name, String value) {
        try {
            return Instant.parse(value.strip());
        } catch (DateTimeParseException e) {
            throw new BadFilter(name + " must be an ISO-8601 instant such as 2026-01-31T12:00:00Z, not '" + cut(value) + "'");
        }
    }

    private static boolean present(String value) {
        return value != null && !value.isBlank();
    }

    private static String cut(String text) {
        return text.length() <= 64 ? text : text.substring(0, 64) + "…";
    }
}
