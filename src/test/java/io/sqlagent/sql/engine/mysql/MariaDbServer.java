package io.sqlagent.sql.engine.mysql;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;

/**
 * A throwaway MariaDB server for the tests, from the Debian package {@code mariadb-server}: a data
 * directory made by {@code mariadb-install-db} under the temporary directory, {@code mariadbd} on a
 * free port of 127.0.0.1, started once per test JVM and stopped (data deleted) when it exits; a small
 * {@code sh} watchdog stops it if the JVM is killed. It holds database {@code shop} and the account
 * {@code agent} (password {@code agent-pw}) with {@code SELECT} on {@code shop} only, the way a source
 * should connect; {@code root} (no password, local only) is for fixtures and for showing what the
 * guard refuses. Without the package the tests are skipped, unless {@code CI} is set: then they fail
 * (.ci/run installs it). A test that kills its server and starts it again has one of its own ({@link #another}).
 */
public final class MariaDbServer {

    static final Path MARIADBD = Path.of("/usr/sbin/mariadbd");
    static final Path INSTALL_DB = Path.of("/usr/bin/mariadb-install-db");
    static final Path CLIENT = Path.of("/usr/bin/mariadb");

    private static MariaDbServer running;

    private final Path directory;
    private final int port;
    /** The running {@code mariadbd}, null while {@link #kill killed}. */
    private Process process;

    private MariaDbServer(Path directory, int port) {
        this.directory = directory;
        this.port = port;
    }

    /** The server, started on first use. */
    public static synchronized MariaDbServer get() {
        if (running == null) {
            requireInstalled();
            try {
                running = start();
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException("MariaDB could not be started: " + e.getMessage(), e);
            }
        }
        return running;
    }

    /**
     * A server of the caller's own, not the shared one ({@link #get}), set up the same way ({@code shop}, {@code agent}):
     * for a test that kills it ({@link #kill}) and starts it again ({@link #restart}), which no test sharing a server
     * could bear. Stopped, its data deleted, when the JVM exits, or earlier by {@link #stop}.
     */
    public static MariaDbServer another() {
        requireInstalled();
        try {
            return start();
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("MariaDB could not be started: " + e.getMessage(), e);
        }
    }

    /**
     * Kills {@code mariadbd} at once (SIGKILL: no shutdown of its own, as the OOM killer would) and waits until it is
     * gone; its connections break mid-statement and its port refuses connections.
     */
    public synchronized void kill() {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    /** Starts {@code mariadbd} again on the same data directory and port, after {@link #kill}, and waits for it. */
    public synchronized void restart() {
        if (process != null) {
            return;
        }
        try {
            launch();
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("MariaDB could not be started again: " + e.getMessage(), e);
        }
    }

    /** Stops the server and deletes its data (for {@link #another}; the shared one is stopped when the JVM exits). */
    public synchronized void stop() {
        Process running = process;
        process = null;
        stop(running, directory);
    }

    /**
     * Whether the tests can have the server: it is installed, or {@code CI} is set (then {@link #get} fails when it is
     * not, as every MariaDB test does).
     */
    public static boolean available() {
        return Files.isExecutable(MARIADBD) && Files.isExecutable(INSTALL_DB) && Files.isExecutable(CLIENT)
                || "true".equalsIgnoreCase(System.getenv("CI"));
    }

    private static void requireInstalled() {
        if (Files.isExecutable(MARIADBD) && Files.isExecutable(INSTALL_DB) && Files.isExecutable(CLIENT)) {
            return;
        }
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError("mariadbd is needed for the MariaDB tests under CI "
                    + "(apt-get install mariadb-server; .ci/run does it)");
        }
        Assumptions.abort("mariadbd not installed (apt-get install mariadb-server): MariaDB tests skipped");
    }

    /** The URL of the source account, {@code mariadb://agent:…@127.0.0.1:port/shop}. */
    public String agentUrl() {
        return "mariadb://agent:agent-pw@127.0.0.1:" + port + "/shop";
    }

    /** The URL of {@code root}, for fixtures and demonstrations only. */
    public String rootUrl() {
        return "mariadb://root@127.0.0.1:" + port + "/shop";
    }

    /** Where the server may write files ({@code secure_file_priv}): the demonstrations of INTO OUTFILE look here. */
    public Path files() {
        return directory.resolve("files");
    }

    public int port() {
        return port;
    }

    /** Runs {@code sql} as root with the {@code mariadb} client (fixtures); fails with the client's output. */
    public String root(String sql) {
        return client(ProcessBuilder.Redirect.PIPE, "--skip-column-names", "-e", sql);
    }

    /** Statements whose text holds {@code fragment} that run on this server now, other than this count's own. */
    public int running(String fragment) {
        return Integer.parseInt(root("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE '%" + fragment
                + "%' AND ID <> CONNECTION_ID()").strip());
    }

    /** Runs the script {@code script} as root, read by the client from its standard input (scripts too long for -e). */
    public void rootScript(Path script) {
        client(ProcessBuilder.Redirect.from(script.toFile()), "--default-character-set=utf8mb4");
    }

    private String client(ProcessBuilder.Redirect input, String... arguments) {
        List<String> command = new ArrayList<>(List.of(CLIENT.toString(), "--no-defaults", "-uroot",
                "--socket=" + directory.resolve("sock"), "--batch"));
        command.addAll(List.of(arguments));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectInput(input).start();
            String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("mariadb " + String.join(" ", arguments) + " failed: " + output);
            }
            return output;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static boolean asRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static MariaDbServer start() throws IOException, InterruptedException {
        Path directory = Files.createTempDirectory("sqlagent-mariadb-");
        Files.createDirectories(directory.resolve("files"));
        List<String> install = new ArrayList<>(List.of(INSTALL_DB.toString(), "--no-defaults",
                "--datadir=" + directory.resolve("data"), "--auth-root-authentication-method=normal",
                "--skip-test-db"));
        if (asRoot()) {
            install.add("--user=root");
        }
        run(install, directory.resolve("install.log"), Duration.ofSeconds(120));
        MariaDbServer started = new MariaDbServer(directory, freePort());
        Runtime.getRuntime().addShutdownHook(new Thread(started::stop, "mariadb-stopper"));
        started.launch();
        started.root("""
                CREATE DATABASE shop;
                CREATE USER 'agent'@'%' IDENTIFIED BY 'agent-pw';
                GRANT SELECT, SHOW VIEW ON shop.* TO 'agent'@'%';
                """);
        return started;
    }

    /** Starts {@code mariadbd} on this server's data directory and port, watched, and waits until it listens. */
    private void launch() throws IOException, InterruptedException {
        List<String> server = new ArrayList<>(List.of(MARIADBD.toString(), "--no-defaults",
                "--datadir=" + directory.resolve("data"), "--socket=" + directory.resolve("sock"),
                "--port=" + port, "--bind-address=127.0.0.1", "--skip-name-resolve",
                "--pid-file=" + directory.resolve("mariadbd.pid"), "--log-error=" + directory.resolve("error.log"),
                "--secure-file-priv=" + directory.resolve("files"), "--innodb-buffer-pool-size=32M",
                "--max-connections=50"));
        if (asRoot()) {
            server.add("--user=root");
        }
        Process started = new ProcessBuilder(server).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(directory.resolve("stdout.log").toFile())).start();
        process = started;
        watchdog(started.pid(), directory);
        waitForPort(started, port, directory);
    }

    private static void run(List<String> command, Path log, Duration timeout) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IOException(String.join(" ", command.subList(0, 1)) + " failed: " + Files.readString(log));
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void waitForPort(Process process, int port, Path directory) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("mariadbd exited: " + Files.readString(directory.resolve("error.log")));
            }
            try (Socket socket = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        throw new IOException("mariadbd did not listen on " + port + " within 60 s");
    }

    /** Stops the server when this JVM is gone without its shutdown hooks (killed): polls the JVM's pid every second. */
    private static void watchdog(long serverPid, Path directory) throws IOException {
        long jvm = ProcessHandle.current().pid();
        String script = "while kill -0 " + jvm + " 2>/dev/null; do sleep 1; done; kill " + serverPid
                + " 2>/dev/null; sleep 5; rm -rf '" + directory + "'";
        new ProcessBuilder("sh", "-c", script).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static void stop(Process process, Path directory) {
        try {
            if (process != null) {
                process.destroy();
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // The temporary directory is the system's to clean then.
        }
    }
}
