package io.sqlagent.sql.run;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.smallrye.mutiny.Uni;
import io.sqlagent.sql.source.Source;

/**
 * SQL metrics: {@code sqlagent_sql_statement_duration_seconds{source, outcome}} (a histogram: the
 * time from asking the source for a connection to the statement's last row read, or its failure;
 * the wait for a connection alone is the pool's {@code sql_pool_queue_delay_seconds}) and
 * {@code sqlagent_sql_errors_total{source, sqlstate}}, the statements PostgreSQL rejected.
 * Histogram buckets: {@link io.sqlagent.metrics.DurationHistograms}.
 */
@ApplicationScoped
public class SqlMetrics {

    static final String STATEMENTS = "sqlagent.sql.statement.duration";
    static final String ERRORS = "sqlagent.sql.errors";

    private final MeterRegistry meters;
    private final ConcurrentHashMap<Key, Timer> timers = new ConcurrentHashMap<>();

    private record Key(String source, String outcome) {
    }

    SqlMetrics(MeterRegistry meters) {
        this.meters = meters;
    }

    void onSqlError(@Observes SqlErrorOccurred error) {
        Counter.builder(ERRORS).description("Statements PostgreSQL rejected, by source and SQLSTATE")
                .tags("source", error.source(), "sqlstate", error.sqlState())
                .register(meters).increment();
    }

    /** {@code statement}, timed from subscription to its result, failure ({@code error}) or cancellation. */
    <T> Uni<T> timed(Source source, Uni<T> statement) {
        return Uni.createFrom().deferred(() -> {
            Timer.Sample started = Timer.start(meters);
            // One operator for the three ends (each operator costs a capture of the call's context); the first counts.
            AtomicBoolean stopped = new AtomicBoolean();
            return statement.onTermination().invoke((item, failure, cancelled) -> {
                if (stopped.compareAndSet(false, true)) {
                    started.stop(timer(source, cancelled ? "cancelled" : failure == null ? "success" : "error"));
                }
            });
        });
    }

    private Timer timer(Source source, String outcome) {
        // Sources are configured, outcomes fixed: the tag sets are bounded.
        return timers.computeIfAbsent(new Key(source.name(), outcome), key -> Timer.builder(STATEMENTS)
                .description("Time to run a SQL statement on a source, from asking for a connection to its last row")
                .tags("source", key.source(), "outcome", key.outcome())
                .register(meters));
    }
}
