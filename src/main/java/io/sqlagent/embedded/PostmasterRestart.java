package io.sqlagent.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.postgresql.ds.PGSimpleDataSource;

import io.quarkus.logging.Log;
import io.zonky.test.db.postgres.util.LinuxUtils;

/**
 * Starts a postmaster that died again, exactly as it last ran: same binary, data directory, port and settings, read
 * from the {@code postmaster.opts} file PostgreSQL writes at each start for this purpose ({@code pg_ctl restart} uses
 * it too). The embedded library cannot start a second server on a directory it still holds locked, and holds no
 * settings a restart would need beyond those. Until the dead server's last backends have exited PostgreSQL refuses to
 * start (their shared memory is still attached), so starting is retried until the deadline.
 */
final class PostmasterRestart {

    private static final Pattern QUOTED = Pattern.compile(" \"([^\"]*)\"");

    private PostmasterRestart() {
    }

    /**
     * Starts the server of {@code running} and waits until it answers queries, within {@code deadline}; returns its
     * postmaster.
     */
    static ProcessHandle restart(EmbeddedDatabase.Running running, Duration deadline) throws IOException {
        List<String> command = command(running.dataDirectory());
        Path log = running.dataDirectory().resolveSibling(running.dataDirectory().getFileName() + ".log");
        long end = System.nanoTime() + deadline.toNanos();
        String lastProblem = "not started";
        while (System.nanoTime() < end) {
            Process postmaster = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            while (postmaster.isAlive() && System.nanoTime() < end) {
                Optional<String> problem = answers(running.port());
                if (problem.isEmpty()) {
                    PostmasterStopper.startWatchdog(postmaster.toHandle(), null);
                    return postmaster.toHandle();
                }
                lastProblem = problem.get();
                pause(200);
            }
            if (postmaster.isAlive()) {
                postmaster.destroyForcibly();
                break;
            }
            // Most often the old server's backends still hold its shared memory: they exit within moments.
            lastProblem = "the postmaster exited with status " + postmaster.exitValue() + " (see " + log + ")";
            pause(500);
        }
        throw new IOException("the embedded PostgreSQL did not start again within " + deadline.toSeconds() + " s: "
                + lastProblem);
    }

    /** The command line of the server's last start, from {@code postmaster.opts}. */
    static List<String> command(Path dataDirectory) throws IOException {
        String opts = Files.readString(dataDirectory.resolve("postmaster.opts"), StandardCharsets.UTF_8).strip();
        int firstArgument = opts.indexOf(" \"");
        List<String> command = new ArrayList<>();
        if (LinuxUtils.isUnshareAvailable()) {
            // As the embedded library starts it: as root, PostgreSQL runs only in a user namespace of its own.
            command.addAll(List.of("unshare", "-U"));
        }
        command.add(firstArgument < 0 ? opts : opts.substring(0, firstArgument));
        Matcher argument = QUOTED.matcher(opts);
        while (argument.find()) {
            command.add(argument.group(1));
        }
        return command;
    }

    /** Empty when the server runs queries; else why not (starting up, recovering, not listening). */
    private static Optional<String> answers(int port) {
        PGSimpleDataSource source = new PGSimpleDataSource();
        source.setServerNames(new String[] { "localhost" });
        source.setPortNumbers(new int[] { port });
        source.setDatabaseName("postgres");
        source.setUser(EmbeddedDatabase.USER);
        source.setConnectTimeout(2);
        try (Connection connection = source.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("SELECT 1");
            return Optional.empty();
        } catch (SQLException e) {
            Log.debugf("The embedded PostgreSQL does not answer yet: %s", e.getMessage());
            return Optional.of(e.getMessage());
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
