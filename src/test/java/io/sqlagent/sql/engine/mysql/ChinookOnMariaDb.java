package io.sqlagent.sql.engine.mysql;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The Chinook database in the test MariaDB, as database {@code chinook} readable by the source account: the
 * PostgreSQL script the service ships (db/chinook, under its licence) read in MariaDB's dialect, so both engines hold
 * the same data under the same names. The script is portable but for a few lines: the database is made here rather
 * than by {@code DROP/CREATE DATABASE} and psql's {@code \c}; {@code TIMESTAMP} columns become {@code DATETIME}
 * (MariaDB's {@code TIMESTAMP} is an instant in the session's zone, with automatic defaults); and backslashes in
 * strings are plain characters, as in PostgreSQL ({@code NO_BACKSLASH_ESCAPES}, for this script only).
 */
final class ChinookOnMariaDb {

    private static boolean loaded;

    private ChinookOnMariaDb() {
    }

    /** Loads Chinook once per JVM. */
    static synchronized void load(MariaDbServer server) {
        if (loaded) {
            return;
        }
        try (InputStream in = ChinookOnMariaDb.class.getResourceAsStream("/db/chinook/chinook-postgres.sql")) {
            String postgres = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            StringBuilder script = new StringBuilder("""
                    SET SESSION sql_mode = 'STRICT_TRANS_TABLES,NO_BACKSLASH_ESCAPES';
                    DROP DATABASE IF EXISTS chinook;
                    CREATE DATABASE chinook DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
                    USE chinook;
                    """);
            for (String line : postgres.split("\n")) {
                if (line.startsWith("DROP DATABASE") || line.startsWith("CREATE DATABASE") || line.startsWith("\\c ")) {
                    continue;
                }
                script.append(line.replace(" TIMESTAMP", " DATETIME")).append('\n');
            }
            script.append("GRANT SELECT, SHOW VIEW ON chinook.* TO 'agent'@'%';\n");
            Path file = Files.createTempFile("chinook-mariadb-", ".sql");
            Files.writeString(file, script);
            server.rootScript(file);
            Files.delete(file);
            loaded = true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The URL of the source account on {@code chinook}. */
    static String agentUrl(MariaDbServer server) {
        return "mariadb://agent:agent-pw@127.0.0.1:" + server.port() + "/chinook";
    }
}
