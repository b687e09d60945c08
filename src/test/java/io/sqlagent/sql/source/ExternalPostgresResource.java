package io.sqlagent.sql.source;

import java.sql.Connection;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.sqlagent.sql.engine.mysql.MariaDbServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * A second, separate PostgreSQL server standing in for a user's own databases: source {@code default} is its small
 * {@code shop} database, whose {@code track} table has 7 rows (Chinook's has 3503); source {@code stock} is its
 * {@code stock} database, whose {@code part} table has 3, read as the role a caller's {@code pg_role} names (only
 * {@code stock_clerk} is allowed), so the SQL tools' {@code source} argument is tried with two sources and a role
 * mapping that admits some callers and not others. Where MariaDB can be had ({@link MariaDbServer}), source
 * {@code gadgets} is its {@code shop} database, whose {@code gadget} table has {@value #GADGETS} rows, read as the
 * account {@code agent}: the two engines side by side, with a denied table ({@code gadget_cost}) and a hidden column
 * ({@code gadget_buyer.email}) there.
 */
public class ExternalPostgresResource implements QuarkusTestResourceLifecycleManager {

    static final int TRACKS = 7;

    /** The rows of the MariaDB source's {@code gadget} table. */
    public static final int GADGETS = 4;

    /** The rows of {@code stock}'s {@code part} table. */
    public static final int PARTS = 3;

    private EmbeddedPostgres server;

    @Override
    public Map<String, String> start() {
        try {
            server = EmbeddedPostgres.builder().start();
            try (Connection connection = server.getPostgresDatabase().getConnection();
                    Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE shop");
                statement.execute("CREATE DATABASE stock");
                statement.execute("CREATE ROLE shop_reader LOGIN PASSWORD 'reader-pw'");
                statement.execute("CREATE ROLE stock_clerk NOLOGIN");
                statement.execute("GRANT stock_clerk TO shop_reader");
            }
            try (Connection connection = server.getDatabase("postgres", "stock").getConnection();
                    Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE part (id int PRIMARY KEY, label text NOT NULL)");
                statement.execute("COMMENT ON TABLE part IS 'Spare parts kept in the warehouse'");
                statement.execute("INSERT INTO part SELECT g, 'bolt ' || g FROM generate_series(1, " + PARTS + ") g");
                statement.execute("GRANT SELECT ON part TO shop_reader, stock_clerk");
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
        Map<String, String> settings = new HashMap<>(Map.of(
                "sqlagent.sources.default.url", "jdbc:postgresql://localhost:" + server.getPort() + "/shop",
                "sqlagent.sources.default.username", "shop_reader",
                "sqlagent.sources.default.password", "reader-pw",
                "sqlagent.sources.stock.url", "postgresql://shop_reader:reader-pw@localhost:" + server.getPort() + "/stock",
                "sqlagent.sources.stock.role-claim", "pg_role",
                "sqlagent.sources.stock.allowed-roles", "stock_clerk"));
        if (MariaDbServer.available()) {
            MariaDbServer mariaDb = MariaDbServer.get();
            mariaDb.root("DROP TABLE IF EXISTS shop.gadget; CREATE TABLE shop.gadget (id INT PRIMARY KEY, "
                    + "name VARCHAR(40) NOT NULL, price DECIMAL(10,2) NOT NULL) COMMENT 'Gadgets on sale'; "
                    + "INSERT INTO shop.gadget VALUES (1, 'lamp', 19.90), (2, 'kettle', 34.50), (3, 'radio', 99.00), "
                    + "(4, 'fan', 24.00); "
                    + "CREATE OR REPLACE TABLE shop.gadget_buyer (id INT PRIMARY KEY, name VARCHAR(40), email VARCHAR(80)); "
                    + "INSERT INTO shop.gadget_buyer VALUES (1, 'Ann', 'ann@example.com'); "
                    + "CREATE OR REPLACE TABLE shop.gadget_cost (id INT PRIMARY KEY, cost DECIMAL(10,2)); "
                    + "INSERT INTO shop.gadget_cost VALUES (1, 3.10)");
            settings.put("sqlagent.sources.gadgets.url", mariaDb.agentUrl());
            // The table policy and hidden columns hold on the MariaDB source too (its tables only: PostgreSQL's have
            // no such names).
            settings.put("sqlagent.sql.denied-tables", "gadget_cost");
            settings.put("sqlagent.sql.hidden-columns", "gadget_buyer.email");
        }
        return settings;
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
