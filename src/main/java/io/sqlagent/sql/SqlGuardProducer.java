package io.sqlagent.sql;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.quarkus.runtime.Startup;
import io.sqlagent.sql.guard.SqlGuard;
import io.sqlagent.sql.guard.StatementKind;

/**
 * Builds the guard from {@code sqlagent.sql.allowed-statements} at start-up, so a wrong setting stops the service at
 * once. It lives here, not in {@code sql.guard}, so that the guard needs nothing from CDI or configuration.
 */
public class SqlGuardProducer {

    @Produces
    @Singleton
    @Startup
    SqlGuard guard(SqlConfig config) {
        try {
            return new SqlGuard(StatementKind.parseAll(config.allowedStatements()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("sqlagent.sql.allowed-statements: " + e.getMessage(), e);
        }
    }
}
