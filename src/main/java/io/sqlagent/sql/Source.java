package io.sqlagent.sql;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

import io.smallrye.mutiny.Uni;
import io.sqlagent.Redaction;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;

/**
 * One named database the agent queries, with its own connection pool. A source whose settings
 * could not be used (a malformed URL, say) has no pool and reports why, so one bad source never
 * stops the service.
 *
 * @param name the configured name
 * @param displayUrl the URL with credentials hidden, safe to log and show
 * @param pool the connection pool, absent when the settings are unusable
 * @param configurationProblem why the settings are unusable, when they are
 */
public record Source(String name, String displayUrl, Optional<Pool> pool, Optional<String> configurationProblem) {

    /** Environment variable that sets the URL of the source with this name. */
    public static String urlVariable(String name) {
        return "SQLAGENT_SOURCES_" + name.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_") + "_URL";
    }

    /** The pool, or a failure naming the source's configuration problem. */
    public Pool requirePool() {
        return pool.orElseThrow(() -> new IllegalStateException(
                "source '" + name + "' is misconfigured: " + configurationProblem.orElse("no pool")));
    }

    /**
     * Checks that the database answers, within {@code timeout}; never fails: a problem becomes a
     * DOWN status with the reason.
     */
    public Uni<SourceStatus> probe(Duration timeout) {
        if (pool.isEmpty()) {
            return Uni.createFrom().item(SourceStatus.down(name, displayUrl,
                    "misconfigured: " + configurationProblem.orElse("no pool")));
        }
        return pool.get()
                .query("SHOW server_version")
                .execute()
                .map(rows -> {
                    Row row = rows.iterator().next();
                    return SourceStatus.up(name, displayUrl, "PostgreSQL " + row.getString(0));
                })
                .ifNoItem().after(timeout).failWith(() -> new IllegalStateException("no answer within " + timeout.toMillis() + " ms"))
                .onFailure().recoverWithItem(failure -> SourceStatus.down(name, displayUrl, reason(failure)));
    }

    private static String reason(Throwable failure) {
        String message = failure.getMessage();
        if (message == null || message.isBlank()) {
            return failure.getClass().getSimpleName();
        }
        return Redaction.redact(message);
    }
}
