package io.sqlagent.sql;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.micrometer.core.instrument.MeterRegistry;

/** Counts the statements PostgreSQL rejected: {@code sqlagent_sql_errors_total{source, sqlstate}}. */
@ApplicationScoped
public class SqlMetrics {

    private final MeterRegistry meters;

    SqlMetrics(MeterRegistry meters) {
        this.meters = meters;
    }

    void onSqlError(@Observes SqlErrorOccurred error) {
        meters.counter("sqlagent.sql.errors", "source", error.source(), "sqlstate", error.sqlState()).increment();
    }
}
