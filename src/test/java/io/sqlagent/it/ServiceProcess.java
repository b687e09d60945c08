package io.sqlagent.it;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The packaged service run the way the README runs it ({@code java -jar target/quarkus-app/quarkus-run.jar}),
 * in its own working directory, as a separate process. Public for the load driver in {@code io.sqlagent.bench}.
 * <p>
 * The working directory gets links to the application's files, so the service runs as
 * {@code java -XX:SharedArchiveFile=app-cds.jsa -jar quarkus-run.jar} does in the container image: the class-data
 * archive names its class path relative to the directory it was written in, and the JVM refuses it from anywhere
 * else. With it each start maps its classes instead of loading and verifying them, which is most of what a refused
 * start costs.
 */
public final class ServiceProcess implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    public final Path workDir;
    public final int httpPort;
    public final int postgresPort;
    public final Path log;
    private final Process process;

    private ServiceProcess(Path workDir, int httpPort, int postgresPort, Path log, Process process) {
        this.workDir = workDir;
        this.httpPort = httpPort;
        this.postgresPort = postgresPort;
        this.log = log;
        this.process = process;
    }

    /**
     * The JIT of a service a test starts, asks a few questions and stops within a minute or two: its start is most of
     * what it does, which the JIT's first tier alone gets through sooner, and the second tier's compiler threads would
     * take the cores the test and the other services wait for (two IT classes run at a time). The load driver in
     * {@code io.sqlagent.bench} measures a service under load, so it keeps the JVM's default.
     */
    public static final List<String> SHORT_LIVED = List.of("-XX:TieredStopAtLevel=1");

    static ServiceProcess start(Path workDir, Map<String, String> env) throws IOException {
        return start(workDir, env, List.of(), appDir());
    }

    /**
     * Starts the service with JVM options of its own ({@code -Xmx512m}, {@code -Dname=value}, ...) and the JVM's own
     * JIT, as the load driver measures it.
     */
    public static ServiceProcess startWithJvmOptions(Path workDir, Map<String, String> env, List<String> jvmOptions)
            throws IOException {
        return start(workDir, env, List.of(), jvmOptions, appDir());
    }

    /** Starts a short-lived service ({@link #SHORT_LIVED}) with JVM options of its own. */
    public static ServiceProcess startShortLived(Path workDir, Map<String, String> env, List<String> jvmOptions)
            throws IOException {
        return start(workDir, env, List.of(), shortLived(jvmOptions), appDir());
    }

    private static List<String> shortLived(List<String> jvmOptions) {
        List<String> options = new java.util.ArrayList<>(SHORT_LIVED);
        options.addAll(jvmOptions);
        return options;
    }

    /**
     * The environment of a service whose store and source are both the test's PostgreSQL on
     * {@code port} (no embedded server started per process), whose model is {@code modelUrl}, plus
     * {@code more} (name, value, name, value, …).
     */
    static Map<String, String> onExternalDatabase(int port, String modelUrl, String... more) {
        Map<String, String> env = onDatabase(port, "postgres");
        env.put("QUARKUS_LANGCHAIN4J_OPENAI_BASE_URL", modelUrl);
        for (int i = 0; i + 1 < more.length; i += 2) {
            env.put(more[i], more[i + 1]);
        }
        return env;
    }

    /**
     * The environment of a service whose store and source are both {@code database} of the test's PostgreSQL on
     * {@code port}, and nothing else.
     */
    static Map<String, String> onDatabase(int port, String database) {
        return new LinkedHashMap<>(Map.of(
                "QUARKUS_DATASOURCE_REACTIVE_URL", "postgresql://localhost:" + port + "/" + database,
                "QUARKUS_DATASOURCE_USERNAME", "postgres",
                "QUARKUS_DATASOURCE_PASSWORD", "postgres",
                "SQLAGENT_EMBEDDED_ENABLED", "false",
                "SQLAGENT_SOURCES_DEFAULT_URL", "jdbc:postgresql://localhost:" + port + "/" + database,
                "SQLAGENT_SOURCES_DEFAULT_USERNAME", "postgres"));
    }

    static Path appDir() {
        return Path.of(System.getProperty("quarkus.app.dir", "target/quarkus-app")).toAbsolutePath();
    }

    /**
     * Starts the service from {@code appDir}, its command prefixed by {@code runAs} (for example
     * {@code runuser -u nobody --}).
     */
    static ServiceProcess start(Path workDir, Map<String, String> env, List<String> runAs, Path appDir) throws IOException {
        return start(workDir, env, runAs, SHORT_LIVED, appDir);
    }

    private static ServiceProcess start(Path workDir, Map<String, String> env, List<String> runAs, List<String> jvmOptions,
            Path appDir) throws IOException {
        String jar = linkApplication(workDir, appDir);
        int httpPort = freePort();
        int postgresPort = freePort();
        Path log = workDir.resolve("service-" + System.nanoTime() + ".log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new java.util.ArrayList<>(runAs);
        command.add(java);
        Path archive = appDir.resolve("app-cds.jsa");
        if (Files.exists(archive)) {
            command.add("-XX:SharedArchiveFile=" + archive);
        }
        command.addAll(jvmOptions);
        command.addAll(List.of(
                "-Dquarkus.http.port=" + httpPort,
                "-Dsqlagent.embedded.port=" + postgresPort,
                "-jar", jar));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("QUARKUS_") || name.startsWith("SQLAGENT_"));
        builder.environment().putAll(env);
        return new ServiceProcess(workDir, httpPort, postgresPort, log, builder.start());
    }

    /**
     * Links the application's files into {@code workDir} (once; a second service in the same directory finds them)
     * and returns the jar to run, relative to it.
     */
    private static String linkApplication(Path workDir, Path appDir) throws IOException {
        if (workDir.toAbsolutePath().equals(appDir.toAbsolutePath())) {
            return "quarkus-run.jar";
        }
        for (String name : List.of("quarkus-run.jar", "lib", "app", "quarkus")) {
            Path link = workDir.resolve(name);
            if (!Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
                Files.createSymbolicLink(link, appDir.resolve(name).toAbsolutePath());
            }
        }
        return "quarkus-run.jar";
    }

    /** Waits until {@code path} answers {@code status}; returns how long it took. */
    public Duration awaitStatus(String path, int status, Duration atMost) throws Exception {
        long started = System.nanoTime();
        long deadline = started + atMost.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError("the service exited with " + process.exitValue() + ":\n" + Files.readString(log));
            }
            Optional<HttpResponse<String>> response = get(path);
            if (response.isPresent() && response.get().statusCode() == status) {
                return Duration.ofNanos(System.nanoTime() - started);
            }
            Thread.sleep(200);
        }
        throw new AssertionError(path + " did not answer " + status + " within " + atMost + ":\n" + Files.readString(log));
    }

    public Optional<HttpResponse<String>> get(String path) throws InterruptedException {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + httpPort + path))
                    .timeout(Duration.ofSeconds(5)).build();
            return Optional.of(HTTP.send(request, HttpResponse.BodyHandlers.ofString()));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Posts {@code json} to {@code path} and returns the answer. */
    public HttpResponse<String> postJson(String path, String json, Duration timeout) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + httpPort + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).timeout(timeout).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** The embedded postmaster recorded in the data directory, if it runs. */
    Optional<ProcessHandle> postmaster() throws IOException {
        Path pidFile = workDir.resolve(".sqlagent/pgdata/postmaster.pid");
        if (!Files.exists(pidFile)) {
            return Optional.empty();
        }
        long pid = Long.parseLong(Files.readAllLines(pidFile).get(0).trim());
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
    }

    /** Sends SIGTERM, as Kubernetes does to stop a pod, and returns at once. */
    public void terminate() {
        process.destroy();
    }

    /** Stops the service as a terminal or Kubernetes would (SIGTERM) and returns its exit code. */
    public int stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the service did not stop within 30 s of SIGTERM");
        }
        return process.exitValue();
    }

    /**
     * Kills the service's JVM without letting it run its shutdown hooks (SIGKILL). Only the JVM:
     * the watchdog it started must survive it, as it would in real life.
     */
    void kill() throws InterruptedException {
        jvm().destroyForcibly();
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** Waits for the service to exit by itself and returns its exit code. */
    public int awaitExit(Duration atMost) throws Exception {
        if (!process.waitFor(atMost.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the service still runs after " + atMost + ":\n" + logText());
        }
        return process.exitValue();
    }

    public String logText() throws IOException {
        return Files.readString(log);
    }

    @Override
    public void close() throws Exception {
        if (process.isAlive()) {
            kill();
        }
    }

    /** The JVM of the service: the process itself, or its child when started through {@code runuser}. */
    public ProcessHandle jvm() {
        return process.descendants().filter(p -> p.info().command().map(c -> c.endsWith("java")).orElse(false))
                .findFirst().orElse(process.toHandle());
    }

    static boolean awaitDeath(ProcessHandle process, Duration atMost) throws InterruptedException {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (process.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        return !process.isAlive();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
