package io.sqlagent.embedded;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * JVM shutdown hook that stops the embedded postmaster (fast shutdown: sessions are ended, data is
 * flushed) and removes a throwaway data directory, once the application has stopped using it
 * ({@link EmbeddedServerLifetime}).
 *
 * <p>
 * It runs after Quarkus may have closed the application class loader, so it uses JDK classes
 * only: no library calls and no lambdas that would need new classes loaded.
 */
final class PostmasterStopper extends Thread {

    private static final long STOP_WAIT_SECONDS = 20;
    /** The longest the server waits for a running application to finish its shutdown (chats, audit). */
    private static final long APPLICATION_WAIT_SECONDS = 60;

    /**
     * Open while the application runs: the JVM starts every shutdown hook at once, and the
     * application's own shutdown (its chats ending, its last store writes) needs the server.
     */
    private static volatile CountDownLatch applicationRunning;

    private final Path dataDirectory;
    private final Path deleteOnExit;
    /**
     * The library's server object, kept reachable for the life of the JVM: it holds the data
     * directory's lock file open, and the lock would go with it if it were garbage-collected.
     */
    @SuppressWarnings("unused")
    private final Object server;

    PostmasterStopper(Path dataDirectory, Path deleteOnExit, Object server) {
        super("sqlagent-embedded-postgres-stopper");
        this.dataDirectory = dataDirectory;
        this.deleteOnExit = deleteOnExit;
        this.server = server;
    }

    /** The application started: the server outlives its shutdown. */
    static void applicationStarted() {
        applicationRunning = new CountDownLatch(1);
    }

    /** The application's shutdown has written what it had to write. */
    static void applicationStopped() {
        CountDownLatch running = applicationRunning;
        if (running != null) {
            running.countDown();
        }
    }

    @Override
    public void run() {
        CountDownLatch running = applicationRunning;
        if (running != null) {
            try {
                running.await(APPLICATION_WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Optional<ProcessHandle> postmaster = postmaster(dataDirectory);
        if (postmaster.isPresent()) {
            stop(postmaster.get());
        }
        if (deleteOnExit != null) {
            delete(deleteOnExit.toFile());
        }
    }

    /** The live postmaster recorded in the data directory's {@code postmaster.pid}, if any. */
    static Optional<ProcessHandle> postmaster(Path dataDirectory) {
        Path pidFile = dataDirectory.resolve("postmaster.pid");
        if (!Files.isRegularFile(pidFile)) {
            return Optional.empty();
        }
        try {
            List<String> lines = Files.readAllLines(pidFile, StandardCharsets.UTF_8);
            if (lines.isEmpty() || lines.get(0).isBlank()) {
                return Optional.empty();
            }
            Optional<ProcessHandle> process = ProcessHandle.of(Long.parseLong(lines.get(0).trim()));
            if (process.isPresent() && process.get().isAlive() && isPostgres(process.get())) {
                return process;
            }
            return Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Asks the postmaster for a fast shutdown (SIGINT) and waits; kills it if it does not stop in time. */
    static void stop(ProcessHandle postmaster) {
        try {
            // SIGINT is PostgreSQL's fast shutdown; the JDK can only send SIGTERM (smart shutdown,
            // which waits for clients) or SIGKILL, so ask the shell, which every Unix has.
            new ProcessBuilder("sh", "-c", "kill -INT " + postmaster.pid())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start()
                    .waitFor(5, TimeUnit.SECONDS);
            postmaster.onExit().get(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            postmaster.destroyForcibly();
        }
    }

    /**
     * Starts a small shell process that stops the postmaster if this JVM dies without running its
     * shutdown hooks (SIGKILL, a crash, a build tool killing a test JVM). It polls the JVM every
     * second and exits with it.
     */
    static void startWatchdog(ProcessHandle postmaster, Path deleteOnExit) {
        String script = "while kill -0 \"$1\" 2>/dev/null; do sleep 1; done; "
                + "kill -INT \"$2\" 2>/dev/null; "
                + "if [ -n \"$3\" ]; then i=0; while kill -0 \"$2\" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.2; i=$((i+1)); done; "
                + "rm -rf -- \"$3\"; fi";
        try {
            new ProcessBuilder("sh", "-c", script, "sqlagent-pg-watchdog",
                    Long.toString(ProcessHandle.current().pid()), Long.toString(postmaster.pid()),
                    deleteOnExit == null ? "" : deleteOnExit.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
        } catch (IOException e) {
            // The shutdown hook still stops the server on every normal exit.
        }
    }

    private static boolean isPostgres(ProcessHandle process) {
        Optional<String> command = process.info().command();
        // Without permission to read the command line, trust the pid file.
        return command.isEmpty() || command.get().endsWith("postgres");
    }

    private static void delete(File file) {
        File[] children = file.listFiles();
        if (children != null) {
            for (File child : children) {
                if (!Files.isSymbolicLink(child.toPath())) {
                    delete(child);
                } else {
                    child.delete();
                }
            }
        }
        file.delete();
    }
}
