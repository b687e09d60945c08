package io.sqlagent.sql.engine.mysql;

/**
 * The roles fixture on a test MariaDB, in a database of its own ({@code staff}, so {@code shop} holds what other tests
 * count), shared by the tests of the caller's role ({@code MariaDbRolesTest} on the
 * engine's statements, {@code MariaDbRoleClaimTest} over REST and MCP): the account {@code role_agent} may read
 * {@code staff.role_pub} itself; role {@code clerk_a} adds {@code role_a}, {@code clerk_b} adds {@code role_b};
 * {@code stranger} exists but is not granted to the account. Made only where missing, so a second test class (or a
 * running service whose pool holds {@code role_agent}'s connections) finds it as it was.
 */
public final class MariaDbRoles {

    /** The account whose connections take the roles on. */
    public static final String ACCOUNT = "role_agent";
    /** The value in {@code role_a}, which only {@code clerk_a} reads. */
    public static final String ONLY_A = "only a";
    /** The value in {@code role_b}, which only {@code clerk_b} reads. */
    public static final String ONLY_B = "only b";

    private MariaDbRoles() {
    }

    /** Makes the tables, roles, grants and account on {@code server} where they are missing. */
    public static synchronized void create(MariaDbServer server) {
        server.root("""
                CREATE DATABASE IF NOT EXISTS staff;
                USE staff;
                CREATE TABLE IF NOT EXISTS role_pub (id INT PRIMARY KEY);
                INSERT IGNORE INTO role_pub VALUES (1);
                CREATE TABLE IF NOT EXISTS role_a (id INT PRIMARY KEY, a VARCHAR(10));
                INSERT IGNORE INTO role_a VALUES (1, '%s');
                CREATE TABLE IF NOT EXISTS role_b (id INT PRIMARY KEY, b VARCHAR(10));
                INSERT IGNORE INTO role_b VALUES (1, '%s');
                CREATE ROLE IF NOT EXISTS clerk_a;
                CREATE ROLE IF NOT EXISTS clerk_b;
                CREATE ROLE IF NOT EXISTS stranger;
                GRANT SELECT ON staff.role_a TO clerk_a;
                GRANT SELECT ON staff.role_b TO clerk_b;
                GRANT SELECT ON staff.role_b TO stranger;
                CREATE USER IF NOT EXISTS role_agent IDENTIFIED BY 'role-pw';
                GRANT SELECT ON staff.role_pub TO role_agent;
                GRANT clerk_a TO role_agent;
                GRANT clerk_b TO role_agent;
                """.formatted(ONLY_A, ONLY_B));
    }

    /** The URL of {@code role_agent} on {@code server}'s {@code staff}. */
    public static String url(MariaDbServer server) {
        return "mariadb://role_agent:role-pw@127.0.0.1:" + server.port() + "/staff";
    }
}
