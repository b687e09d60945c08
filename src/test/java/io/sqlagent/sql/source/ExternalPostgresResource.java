package io.sqlagent.sql.source;

import java.sql.Connection;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.sqlagent.sql.engine.mysql.ChinookOnMariaDb;
import io.sqlagent.sql.engine.mysql.MariaDbRoles;
import io.sqlagent.sql.engine.mysql.MariaDbServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * A second, separate PostgreSQL server standing in for a user's own databases: source {@code default} is its small
 * {@code shop} database, whose {@code track} table has 7 rows (Chinook's has 3503); source {@code stock} is its
 * {@code stock} database, whose {@code part} table has 3, read as the role a caller's {@code pg_role} names (only
 * {@code stock_clerk} is allowed), so the SQL tools' {@code source} argument is tried with two sources and a role
 * mapping that admits some callers and not others. Where MariaDB can be had ({@link MariaDbServer}), source
 * {@code gadgets} is its {@code shop} database, whose {@code gadget} table has {@value #GADGETS} rows, read as the
 * account {@code agent}: the two engines side by side, with denied tables ({@code gadget_cost}, {@code Gadget_Secret}),
 * hidden columns ({@code gadget_buyer.email}, {@code gadget_buyer.Phone}) and views over them there; source
 * {@code music} is Chinook in its database {@code chinook}; source {@code roles} reads it as the account
 * {@code role_agent}, each caller as the MariaDB role its {@code db_role} names ({@link MariaDbRoles}); source
 * {@code flaky} is a MariaDB server of its own ({@link #flaky()}), for the test that kills it. The declared tools of
 * {@value #MARIADB_TOOLS} run on both engines, and
 * tests write more to the directory {@value #RELOAD_DIRECTORY} names.
 */
public class ExternalPostgresResource implements QuarkusTestResourceLifecycleManager {

    static final int TRACKS = 7;

    /** The rows of the MariaDB source's {@code gadget} table. */
    public static final int GADGETS = 4;

    /** Values of the MariaDB source that the policy hides: a hidden column's, a denied table's. */
    public static final String BUYER_EMAIL = "ann@example.com";
    public static final String BUYER_PHONE = "555-0199";
    public static final String SUPPLIER = "Acme Hidden Supply";
    public static final String SECRET_CODE = "XK-1001";

    /** The rows of {@code stock}'s {@code part} table. */
    public static final int PARTS = 3;

    /** The declared tools on the sources of both engines, loaded at start where MariaDB can be had. */
    public static final String MARIADB_TOOLS = "src/test/resources/declarative/mariadb";

    /** The property that names the directory tests of this resource write tool files to before a reload. */
    public static final String RELOAD_DIRECTORY = "sqlagent.test.engine-tools-dir";

    private EmbeddedPostgres server;

    /** The MariaDB of source {@code flaky}, which no other source uses; null where MariaDB cannot be had. */
    private static MariaDbServer flaky;

    /** The server of source {@code flaky}, for the test that kills it and starts it again. */
    public static MariaDbServer flaky() {
        return flaky;
    }

    private static String reloadDirectory() {
        try {
            java.nio.file.Path directory = java.nio.file.Files.createTempDirectory("sqlagent-engine-tools");
            directory.toFile().deleteOnExit();
            System.setProperty(RELOAD_DIRECTORY, directory.toString());
            return directory.toString();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

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
            mariaDb.root("DROP VIEW IF EXISTS shop.gadget_supply, shop.buyer_contact; "
                    + "DROP TABLE IF EXISTS shop.gadget_buyer, shop.gadget_cost, shop.Gadget_Secret, shop.gadget; CREATE TABLE shop.gadget (id INT PRIMARY KEY, "
                    + "name VARCHAR(40) NOT NULL, price DECIMAL(10,2) NOT NULL) COMMENT 'Gadgets on sale'; "
                    + "INSERT INTO shop.gadget VALUES (1, 'lamp', 19.90), (2, 'kettle', 34.50), (3, 'radio', 99.00), "
                    + "(4, 'fan', 24.00); "
                    + "CREATE TABLE shop.gadget_buyer (id INT PRIMARY KEY, name VARCHAR(40), email VARCHAR(80), "
                    + "Phone VARCHAR(20), gadget_id INT, FOREIGN KEY (gadget_id) REFERENCES shop.gadget (id)); "
                    + "INSERT INTO shop.gadget_buyer VALUES (1, 'Ann', '" + BUYER_EMAIL + "', '" + BUYER_PHONE + "', 1); "
                    + "CREATE TABLE shop.gadget_cost (id INT PRIMARY KEY, cost DECIMAL(10,2), "
                    + "supplier VARCHAR(40), FOREIGN KEY (id) REFERENCES shop.gadget (id)) COMMENT 'Purchase cost'; "
                    + "INSERT INTO shop.gadget_cost VALUES (1, 3.10, '" + SUPPLIER + "'); "
                    + "CREATE TABLE shop.Gadget_Secret (id INT PRIMARY KEY, code VARCHAR(12)) "
                    + "COMMENT 'Secret codes'; "
                    + "INSERT INTO shop.Gadget_Secret VALUES (1, '" + SECRET_CODE + "'); "
                    + "CREATE VIEW shop.gadget_supply AS SELECT g.name, c.supplier FROM shop.gadget g "
                    + "JOIN shop.gadget_cost c ON c.id = g.id; "
                    + "CREATE VIEW shop.buyer_contact AS SELECT id, name, email FROM shop.gadget_buyer");
            settings.put("sqlagent.sources.gadgets.url", mariaDb.agentUrl());
            // Source music is Chinook on MariaDB, loaded as the docs tell a user to (bin/chinook-mysql.sh).
            ChinookOnMariaDb.load(mariaDb);
            settings.put("sqlagent.sources.music.url", ChinookOnMariaDb.agentUrl(mariaDb));
            // The table policy and hidden columns hold on the MariaDB source too (its tables only: PostgreSQL's have
            // no such names).
            // Unqualified entries name tables of the source's database, as they name PostgreSQL's public; db-qualified
            // ones in another case name them too.
            settings.put("sqlagent.sql.denied-tables", "gadget_cost,SHOP.gadget_secret");
            settings.put("sqlagent.sql.hidden-columns", "gadget_buyer.email,Shop.Gadget_Buyer.PHONE");
            // Source roles: the account role_agent, each caller as the MariaDB role its db_role names.
            MariaDbRoles.create(mariaDb);
            settings.put("sqlagent.sources.roles.url", MariaDbRoles.url(mariaDb));
            settings.put("sqlagent.sources.roles.role-claim", "db_role");
            settings.put("sqlagent.sources.roles.allowed-roles", "clerk_a,clerk_b,stranger");
            // One connection: each call takes over the very connection the call before it gave back.
            settings.put("sqlagent.sources.roles.max-pool-size", "1");
            // Source flaky: a MariaDB of its own, which the chaos test kills and starts again.
            flaky = MariaDbServer.another();
            settings.put("sqlagent.sources.flaky.url", flaky.agentUrl());
            // Declared tools on both engines (DeclaredToolsOnMariaDbTest), and a directory its reloads write to.
            settings.put("sqlagent.tools.paths", MARIADB_TOOLS + "," + reloadDirectory());
        }
        return settings;
    }

    @Override
    public void stop() {
        try {
            if (server != null) {
                server.close();
            }
            if (flaky != null) {
                flaky.stop();
                flaky = null;
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
