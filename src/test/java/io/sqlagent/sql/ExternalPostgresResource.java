package io.sqlagent.sql;

import java.sql.Connection;
import java.sql.Statement;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * A second, separate PostgreSQL server standing in for a user's own database, holding a small
 * {@code shop} database whose {@code track} table has 7 rows (Chinook's has 3503).
 */
public class ExternalPostgresResource implements QuarkusTestResourceLifecycleManager {

    static final int TRACKS = 7;

    private EmbeddedPostgres server;

    @Override
    public Map<String, String> start() {
        try {
            server = EmbeddedPostgres.builder().start();
            try (Connection connection = server.getPostgresDatabase().getConnection();
                    Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE shop");
                statement.execute("CREATE ROLE shop_reader LOGIN PASSWORD 'reader-pw'");
            }
            try (Connection connection = server.getDatabase("postgres", "shop").getConnection();
                    Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE track (id int PRIMARY KEY, name text)");
                statement.execute("INSERT INTO track SELECT g, 'song ' || g FROM generate_series(1, " + TRACKS + ") g");
                statement.execute("GRANT SELECT ON track TO shop_reader");
            }
        } catch (Exception e) {
            throw new IllegalStateException("could not start the external PostgreSQL for the test", e);
        }
        return Map.of(
                "sqlagent.sources.default.url", "jdbc:postgresql://localhost:" + server.getPort() + "/shop",
                "sqlagent.sources.default.username", "shop_reader",
                "sqlagent.sources.default.password", "reader-pw");
    }

    @Override
    public void stop() {
        try {
            if (server != null) {
                server.close();
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
