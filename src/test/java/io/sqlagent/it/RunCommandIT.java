package io.sqlagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged service, started as the README's run command starts it, on a machine with no
 * database: it brings up its embedded PostgreSQL, serves Chinook on localhost only, keeps what it
 * stored across a restart, and leaves no postgres process behind however it is stopped.
 */
class RunCommandIT {

    private static final Duration READY_WITHIN = Duration.ofSeconds(60);

    @TempDir
    Path workDir;

    @Test
    void servesChinookOnTheEmbeddedDefaultsAndKeepsItsStoreAcrossARestart() throws Exception {
        ProcessHandle firstPostmaster;
        try (ServiceProcess service = ServiceProcess.start(workDir, Map.of())) {
            Duration startup = service.awaitStatus("/q/health/ready", 200, READY_WITHIN);
            System.out.printf("service ready in %d ms on a fresh data directory%n", startup.toMillis());

            assertEquals(3503, count(service.postgresPort, "chinook", "SELECT count(*) FROM track"));
            // The demo source connects as the embedded superuser, which no one can change: one line for later (no
            // warning), readiness still UP and naming it; the log is plain text, and has no warning at all.
            String told = awaitLogLine(service, "Source 'default' is the embedded Chinook demo, read as its superuser");
            assertTrue(told.contains(" INFO ") && told.contains("Give the agent a read-only role"), told);
            assertTrue(service.get("/q/health/ready").orElseThrow().body()
                    .contains("\"default warning\": \"role postgres is a superuser"));
            assertNoWarnings(service);
            // The first learning loads the in-process embedding model: its library's GPU probe warns of no GPU on most
            // laptops, which no one can act on.
            HttpResponse<String> saved = service.postJson("/api/tools/save_learning", """
                    {"title": "Invoice totals include tax", "description": "The total of invoice already includes tax.",
                     "category": "business_logic"}""", Duration.ofSeconds(40));
            assertEquals(200, saved.statusCode(), saved.body());
            awaitLogLine(service, "Embedding model");
            assertNoWarnings(service);
            assertListensOnLoopbackOnly(service.httpPort);
            // Run from a directory without config/tools, the packaged chinook.yaml is what loads.
            service.awaitStatus("/api/tools/search_tracks", 200, Duration.ofSeconds(5));
            execute(service.postgresPort, "sqlagent",
                    "CREATE TABLE learned (note text)", "INSERT INTO learned VALUES ('the agent remembers this')");
            firstPostmaster = service.postmaster().orElseThrow();

            service.stop();

            assertTrue(ServiceProcess.awaitDeath(firstPostmaster, Duration.ofSeconds(10)),
                    "postgres pid " + firstPostmaster.pid() + " still runs after the service stopped");
            assertTrue(Files.isDirectory(workDir.resolve(".sqlagent/pgdata")), "the data directory must persist");
        }

        try (ServiceProcess service = ServiceProcess.start(workDir, Map.of())) {
            service.awaitStatus("/q/health/ready", 200, READY_WITHIN);

            assertEquals(1, count(service.postgresPort, "sqlagent",
                    "SELECT count(*) FROM learned WHERE note = 'the agent remembers this'"));
            assertEquals(3503, count(service.postgresPort, "chinook", "SELECT count(*) FROM track"));
            assertFalse(service.logText().contains("Loaded the Chinook sample database"), "Chinook was loaded twice");
            // A restart on the same data: no notice about the store's version table either.
            awaitLogLine(service, "Source 'default' is the embedded Chinook demo");
            assertNoWarnings(service);

            ProcessHandle postmaster = service.postmaster().orElseThrow();
            service.stop();
            assertTrue(ServiceProcess.awaitDeath(postmaster, Duration.ofSeconds(10)));
        }
    }

    @Test
    void aKilledServiceLeavesNoPostgresBehind() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir, Map.of())) {
            service.awaitStatus("/q/health/ready", 200, READY_WITHIN);
            ProcessHandle postmaster = service.postmaster().orElseThrow();

            service.kill();

            assertTrue(ServiceProcess.awaitDeath(postmaster, Duration.ofSeconds(15)),
                    "postgres pid " + postmaster.pid() + " outlived a SIGKILLed service");
        }
    }

    @Test
    void anUnreachableSourceSetByEnvironmentKeepsTheServiceUpAndReadinessDown() throws Exception {
        Map<String, String> env = Map.of(
                "SQLAGENT_SOURCES_DEFAULT_URL", "postgresql://127.0.0.1:1/warehouse",
                "SQLAGENT_SOURCES_DEFAULT_USERNAME", "analyst",
                "SQLAGENT_SOURCES_DEFAULT_PASSWORD", "top-secret-pw");
        try (ServiceProcess service = ServiceProcess.start(workDir, env)) {
            service.awaitStatus("/q/health/live", 200, READY_WITHIN);

            HttpResponse<String> ready = service.get("/q/health/ready").orElseThrow();
            assertEquals(503, ready.statusCode(), ready.body());
            assertTrue(ready.body().contains("\"default\": \"DOWN: "), ready.body());
            assertTrue(ready.body().contains("Connection refused"), ready.body());

            String log = awaitLogLine(service, "Source 'default' is DOWN");
            assertTrue(log.contains("SQLAGENT_SOURCES_DEFAULT_URL"), log);
            assertFalse(service.logText().contains("top-secret-pw"), "the password reached the log");
            assertFalse(ready.body().contains("top-secret-pw"), "the password reached the health output");
            assertEquals(200, service.get("/q/health/live").orElseThrow().statusCode());
            service.stop();
        }
    }

    /**
     * No WARN or ERROR line: a newcomer's demo start says nothing they would have to act on. A blocked event loop is
     * left out: it says the machine was loaded (the tests share it), not something about the demo.
     */
    private static void assertNoWarnings(ServiceProcess service) throws Exception {
        List<String> warnings = service.logText().lines()
                .filter(line -> line.matches("^\\d\\d:\\d\\d:\\d\\d,\\d+ (WARN|ERROR) .*"))
                .filter(line -> !line.contains("BlockedThreadChecker"))
                .toList();
        assertEquals(List.of(), warnings, service.logText());
    }

    private static String awaitLogLine(ServiceProcess service, String marker) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (System.nanoTime() < deadline) {
            for (String line : service.logText().split("\n")) {
                if (line.contains(marker)) {
                    return line;
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no log line with '" + marker + "':\n" + service.logText());
    }

    private static long count(int port, String database, String sql) throws SQLException {
        try (Connection connection = connect(port, database);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /** With no address configured the service is reachable on loopback only, not on the machine's other addresses. */
    private static void assertListensOnLoopbackOnly(int port) throws Exception {
        List<InetAddress> external = NetworkInterface.networkInterfaces()
                .filter(network -> {
                    try {
                        return network.isUp() && !network.isLoopback();
                    } catch (SocketException e) {
                        return false;
                    }
                })
                .flatMap(NetworkInterface::inetAddresses)
                .filter(address -> address instanceof Inet4Address && !address.isLoopbackAddress())
                .toList();
        for (InetAddress address : external) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(address, port), 2000);
                throw new AssertionError(
                        "the service answers on " + address.getHostAddress() + ":" + port + ", not only on localhost");
            } catch (ConnectException | SocketTimeoutException expected) {
                // refused: nothing listens there
            }
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2000);
        }
    }

    private static void execute(int port, String database, String... statements) throws SQLException {
        try (Connection connection = connect(port, database); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    private static Connection connect(int port, String database) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://localhost:" + port + "/" + database, "postgres", "");
    }
}
