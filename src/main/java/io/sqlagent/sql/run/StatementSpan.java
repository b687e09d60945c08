package io.sqlagent.sql.run;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import io.sqlagent.sql.source.Source;
import io.sqlagent.sql.source.SourceUrls;
import io.sqlagent.trace.Tracing;
import io.vertx.pgclient.PgConnectOptions;

/**
 * The span of one statement a caller asked for (run_sql, a declared tool, ...), as the
 * OpenTelemetry database semantic conventions name it: {@code <operation> <database>}, a client
 * span with {@code db.system.name}, {@code db.namespace}, {@code db.operation.name},
 * {@code server.address} and {@code server.port}, the SQLSTATE of a failure, and the statement's
 * text only when {@code sqlagent.tracing.statement-text} is on. The statements the service runs
 * around it (the transaction, its settings, the hidden-column check) are part of it. The Vert.x
 * SQL client's own spans are off (application.properties): they always carry the text, use the
 * older attribute names, and would trace every query of the service's own store too.
 */
final class StatementSpan {

    static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("db.system.name");
    static final AttributeKey<String> NAMESPACE = AttributeKey.stringKey("db.namespace");
    static final AttributeKey<String> OPERATION = AttributeKey.stringKey("db.operation.name");
    static final AttributeKey<String> QUERY_TEXT = AttributeKey.stringKey("db.query.text");
    static final AttributeKey<String> STATUS_CODE = AttributeKey.stringKey("db.response.status_code");
    static final AttributeKey<Long> RETURNED_ROWS = AttributeKey.longKey("db.response.returned_rows");
    static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
    static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
    static final AttributeKey<String> SOURCE = AttributeKey.stringKey("sqlagent.source");

    /** Leading blanks and comments, then the statement's first word. */
    private static final Pattern FIRST_WORD = Pattern.compile("(?:\\s+|--[^\\n]*\\n?|/\\*(?s:.*?)\\*/)*([A-Za-z]+)");

    private final Tracing tracing;
    /** Where each source's server is, from its (redacted) URL, read once. */
    private final Map<String, Endpoint> endpoints = new ConcurrentHashMap<>();

    private record Endpoint(String database, String host, int port) {
    }

    StatementSpan(Tracing tracing) {
        this.tracing = tracing;
    }

    /**
     * {@code statement} of {@code sql} on {@code source}, traced under {@code parent}; the span starts when it is subscribed.
     */
    Uni<QueryResult> traced(Source source, String sql, Context parent, Uni<QueryResult> statement) {
        return Uni.createFrom().deferred(() -> {
            Span span = start(source, sql, parent);
            return Tracing.ending(span, statement, (done, result) -> done.setAttribute(RETURNED_ROWS, (long) result.rowCount()),
                    StatementSpan::failed);
        });
    }

    private Span start(Source source, String sql, Context parent) {
        Endpoint endpoint = endpoints.computeIfAbsent(source.name(), name -> endpoint(source));
        String operation = operation(sql);
        SpanBuilder builder = tracing.tracer()
                .spanBuilder(endpoint.database().isEmpty() ? operation : operation + " " + endpoint.database())
                .setParent(parent)
                .setSpanKind(SpanKind.CLIENT)
                .setAttribute(SYSTEM, "postgresql")
                .setAttribute(OPERATION, operation)
                .setAttribute(SOURCE, source.name());
        if (!endpoint.database().isEmpty()) {
            builder.setAttribute(NAMESPACE, endpoint.database());
        }
        if (!endpoint.host().isEmpty()) {
            builder.setAttribute(SERVER_ADDRESS, endpoint.host());
            builder.setAttribute(SERVER_PORT, (long) endpoint.port());
        }
        if (tracing.statementText()) {
            builder.setAttribute(QUERY_TEXT, sql);
        }
        return builder.startSpan();
    }

    /** A failure PostgreSQL reported is named by its SQLSTATE, any other by its class. */
    private static void failed(Span span, Throwable failure) {
        String sqlState = failure instanceof SqlExecutionException refused ? refused.sqlState() : null;
        if (sqlState != null) {
            span.setAttribute(STATUS_CODE, sqlState);
        }
        Tracing.failed(span, sqlState != null ? sqlState : failure.getClass().getName(), failure.getMessage());
    }

    /** The statement's first keyword, upper-cased ({@code SELECT}, {@code WITH}, {@code EXPLAIN}, ...). */
    static String operation(String sql) {
        Matcher first = FIRST_WORD.matcher(sql);
        return first.lookingAt() ? first.group(1).toUpperCase(Locale.ROOT) : "SQL";
    }

    private static Endpoint endpoint(Source source) {
        try {
            PgConnectOptions options = PgConnectOptions.fromUri(SourceUrls.normalise(source.displayUrl()));
            return new Endpoint(nullToEmpty(options.getDatabase()), nullToEmpty(options.getHost()), options.getPort());
        } catch (RuntimeException e) {
            return new Endpoint("", "", 0);
        }
    }

    private static String nullToEmpty(String text) {
        return text == null ? "" : text;
    }
}
