package io.sqlagent.embedded;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import io.quarkus.logging.Log;
import io.sqlagent.ClasspathText;
import io.sqlagent.store.SqlScript;

/**
 * Loads the Chinook sample database (MIT licence, see {@code db/chinook/CHINOOK-LICENSE.md}) into
 * the embedded server's {@code chinook} database, once: the whole script runs in one transaction,
 * so the presence of its tables means it was loaded completely.
 */
public final class ChinookLoader {

    /** Whether the script ran to its end: its last table exists. */
    private static final String LOADED = """
            SELECT to_regclass('public.playlist_track') IS NOT NULL""";

    /** Classpath location of the Chinook PostgreSQL script. */
    public static final String SCRIPT = "db/chinook/chinook-postgres.sql";

    /**
     * The script drops and creates the database and then switches to it with psql's {@code \c};
     * the server manages the database itself, so those statements are skipped.
     */
    private static final Pattern DATABASE_STATEMENT = Pattern.compile(
            "^(?:DROP|CREATE)\\s+DATABASE\\b.*", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    private ChinookLoader() {
    }

    /**
     * Loads the script into {@code chinook} unless its tables are already there.
     *
     * @return whether the script was loaded by this call
     */
    public static boolean loadIfMissing(DataSource chinook) throws SQLException, IOException {
        try (Connection connection = chinook.getConnection()) {
            if (alreadyLoaded(connection)) {
                return false;
            }
            long started = System.nanoTime();
            List<String> statements = SqlScript.statements(ClasspathText.require(SCRIPT));
            connection.setAutoCommit(false);
            try (Statement statement = connection.createStatement()) {
                for (String sql : statements) {
                    if (!DATABASE_STATEMENT.matcher(sql).matches()) {
                        statement.execute(sql);
                    }
                }
                connection.commit();
            } catch (SQLException e) {
                connection.rollback();
                throw e;
            }
            Log.infof("Loaded the Chinook sample database (%d statements) in %d ms",
                    statements.size(), (System.nanoTime() - started) / 1_000_000);
            return true;
        }
    }

    private static boolean alreadyLoaded(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(LOADED)) {
            rows.next();
            return rows.getBoolean(1);
        }
    }
}
