package io.sqlagent.sql.engine.mysql;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The Chinook database in the test MariaDB, as database {@code chinook} readable by the source account, loaded by the
 * script a user loads it with ({@code bin/chinook-mysql.sh}: the PostgreSQL script the service ships, db/chinook under
 * its licence, read in MariaDB's dialect), so both engines hold the same data under the same names and the demo's
 * documented commands are the ones tested.
 */
public final class ChinookOnMariaDb {

    private static boolean loaded;

    private ChinookOnMariaDb() {
    }

    /** Loads Chinook once per JVM. */
    public static synchronized void load(MariaDbServer server) {
        if (loaded) {
            return;
        }
        try {
            Path file = Files.createTempFile("chinook-mariadb-", ".sql");
            Process convert = new ProcessBuilder("bash", "bin/chinook-mysql.sh").redirectOutput(file.toFile())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            if (!convert.waitFor(60, TimeUnit.SECONDS) || convert.exitValue() != 0) {
                convert.destroyForcibly();
                throw new IllegalStateException("bin/chinook-mysql.sh failed");
            }
            Files.writeString(file, "GRANT SELECT, SHOW VIEW ON chinook.* TO 'agent'@'%';\n",
                    java.nio.file.StandardOpenOption.APPEND);
            server.rootScript(file);
            Files.delete(file);
            loaded = true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The URL of the source account on {@code chinook}. */
    public static String agentUrl(MariaDbServer server) {
        return "mariadb://agent:agent-pw@127.0.0.1:" + server.port() + "/chinook";
    }
}
