package io.sqlagent.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sqlagent.TestFiles;
import io.sqlagent.agent.ScriptedOpenAiServer;
import io.sqlagent.agent.SseClient;
import io.sqlagent.bench.LoadReport.RunResult;
import io.sqlagent.it.ServiceProcess;

/**
 * The concurrent-chats load run (docs/benchmarks.md, "Concurrent chats"): the packaged service in
 * its own JVM, pointed at an in-process scripted model that takes a fixed time per turn; N virtual
 * users each hold one conversation and ask their questions in turn over {@code POST /api/chat},
 * reading the events from the wire. Exits 1 if any run failed, never because a goal was missed.
 * Run by {@code bench/chat-load.sh}; not a test.
 */
public final class ChatLoad {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration READY_WITHIN = Duration.ofSeconds(120);
    private static final Duration PHASE_LIMIT = Duration.ofMinutes(10);
    private static final Duration MODEL_TIME_WAIT = Duration.ofSeconds(2);

    private final ChatLoadOptions options;
    private ScriptedOpenAiServer model;
    private URI chat;

    private ChatLoad(ChatLoadOptions options) {
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        ChatLoadOptions options;
        try {
            options = ChatLoadOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        System.exit(new ChatLoad(options).run());
    }

    private int run() throws Exception {
        Path workDir = Files.createTempDirectory("sqlagent-load-");
        LoadModel rules = new LoadModel();
        try (ScriptedOpenAiServer server = ScriptedOpenAiServer.start()) {
            model = server.program(rules::answer).latency(options.turnLatency()).recordRequests(false)
                    .timeRuns(LoadModel::runOf);
            // Every virtual user connects from 127.0.0.1, as 500 users behind one proxy would: the per-address cap (128
            // by default) would refuse most of them, which measures the cap, not the service. --service-opt can set it.
            List<String> jvmOptions = new ArrayList<>(List.of("-Xmx" + options.heap(),
                    "-Dsqlagent.http.max-connections-per-address=0"));
            jvmOptions.addAll(options.serviceOptions());
            ServiceProcess service = ServiceProcess.startWithJvmOptions(workDir, Map.of(
                    "QUARKUS_LANGCHAIN4J_OPENAI_BASE_URL", server.baseUrl(),
                    "QUARKUS_LANGCHAIN4J_OPENAI_API_KEY", "load-test-key-not-secret",
                    "QUARKUS_LANGCHAIN4J_OPENAI_CHAT_MODEL_MODEL_NAME", "scripted-load",
                    "SQLAGENT_EMBEDDED_EPHEMERAL", "true"), jvmOptions);
            Optional<ProcessHandle> postmaster = Optional.empty();
            try {
                Duration ready = service.awaitStatus("/q/health/ready", 200, READY_WITHIN);
                postmaster = postmaster(service);
                chat = URI.create("http://localhost:" + service.httpPort + "/api/chat");
                System.out.printf("service ready in %.1f s (pid %d, postgres %s, log %s)%n", ready.toMillis() / 1000.0,
                        service.jvm().pid(), postmaster.map(p -> String.valueOf(p.pid())).orElse("not found"), service.log);

                List<RunResult> warmup = options.warmup() == 0 ? List.of()
                        : users(options.warmup(), "warm-up question", Duration.ZERO);
                List<RunResult> warmupFailures = warmup.stream().filter(run -> !run.ok()).toList();
                System.out.printf("warm-up: %d conversations, %d failed runs%n", options.warmup(), warmupFailures.size());

                Map<String, String> machine = machine();
                model.resetPeakInFlight();
                ServiceSampler sampler = ServiceSampler.start(service, postmaster);
                long started = System.nanoTime();
                List<RunResult> runs = users(options.conversations(), "load question", options.ramp());
                long wall = System.nanoTime() - started;
                ServiceSampler.Totals totals = sampler.finish();
                machine.put("loadavg_after", loadAverage());
                LoadReport report = new LoadReport(options, runs, warmupFailures, totals, wall, machine, model.peakInFlight());
                report.write();
                return report.failures().isEmpty() && warmupFailures.isEmpty() ? 0 : 1;
            } finally {
                stop(service, postmaster);
                Path log = options.out()
                        .resolveSibling(options.out().getFileName().toString().replace(".json", "") + "-service.log");
                Files.copy(service.log, log, StandardCopyOption.REPLACE_EXISTING);
                System.out.println("service log: " + log);
                TestFiles.deleteTree(workDir);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Virtual users
    // ---------------------------------------------------------------------------------------------

    /** Runs {@code count} users together, each asking its questions in turn; every question's result, failures included. */
    private List<RunResult> users(int count, String prefix, Duration ramp) throws InterruptedException {
        ExecutorService threads = Executors.newFixedThreadPool(count, runnable -> {
            Thread thread = new Thread(runnable, "user");
            thread.setDaemon(true);
            return thread;
        });
        CountDownLatch go = new CountDownLatch(1);
        List<Future<List<RunResult>>> users = new ArrayList<>(count);
        for (int user = 1; user <= count; user++) {
            int number = user;
            long delayNanos = ramp.toNanos() * (user - 1) / count;
            users.add(threads.submit(() -> {
                go.await();
                Thread.sleep(delayNanos / 1_000_000, (int) (delayNanos % 1_000_000));
                return conversation(prefix + " " + number);
            }));
        }
        go.countDown();
        long deadline = System.nanoTime() + PHASE_LIMIT.toNanos();
        List<RunResult> results = new ArrayList<>(count * options.questions());
        for (int user = 0; user < count; user++) {
            try {
                results.addAll(users.get(user).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            } catch (TimeoutException | ExecutionException e) {
                for (int question = 1; question <= options.questions(); question++) {
                    results.add(new RunResult(prefix + " " + (user + 1) + "-" + question,
                            "unfinished: the user did not finish within " + PHASE_LIMIT + " (" + e + ")", 0, 0, 0));
                }
            }
        }
        threads.shutdownNow();
        return results;
    }

    /** One user: a new conversation, then follow-ups in it; after a failed question the rest are reported as skipped. */
    private List<RunResult> conversation(String user) throws InterruptedException {
        List<RunResult> results = new ArrayList<>(options.questions());
        String conversationId = null;
        for (int question = 1; question <= options.questions(); question++) {
            String text = user + "-" + question;
            if (conversationId == null && question > 1) {
                results.add(new RunResult(text, "skipped: an earlier question of the conversation failed", 0, 0, 0));
                continue;
            }
            ObjectNode body = JSON.createObjectNode().put("question", text);
            if (conversationId != null) {
                body.put("conversation_id", conversationId);
            }
            long started = System.nanoTime();
            SseClient.Result result;
            try {
                result = SseClient.chat(chat, body.toString());
            } catch (HttpTimeoutException e) {
                results.add(failed(text, "timeout: " + e.getMessage(), started));
                conversationId = null;
                continue;
            } catch (IOException e) {
                results.add(failed(text, "connection: " + e, started));
                conversationId = null;
                continue;
            }
            long endToEnd = System.nanoTime() - started;
            String failure = check(result);
            ScriptedOpenAiServer.ModelTime modelTime = modelTime(text);
            if (failure == null && modelTime.turns() != LoadModel.TURNS_PER_QUESTION) {
                failure = "model turns: the model answered " + modelTime.turns() + " times";
            }
            results.add(new RunResult(text, failure, endToEnd, modelTime.nanos(), modelTime.turns()));
            conversationId = failure == null ? result.conversationId() : null;
        }
        return results;
    }

    private static RunResult failed(String question, String failure, long started) {
        return new RunResult(question, failure, System.nanoTime() - started, 0, 0);
    }

    /** Why the stream is not the expected one (conversation, tool_call, tool_result ok, content, done answer), or null. */
    private static String check(SseClient.Result result) {
        if (result.status() != 200) {
            return "http status: " + result.status();
        }
        if (result.events().isEmpty()) {
            return "no events: the stream was empty";
        }
        SseClient.Event last = result.last();
        if (last.name().equals("error")) {
            return "error event " + last.data().path("code").asText() + ": " + last.data().path("message").asText();
        }
        if (!last.name().equals("done")) {
            return "stream ended before done: last event " + last;
        }
        List<String> expected = List.of("conversation", "tool_call", "tool_result", "content", "done");
        List<String> names = result.names().stream().distinct().toList();
        if (!names.equals(expected)) {
            return "unexpected events: " + result.names();
        }
        if (!result.first("tool_result").data().path("ok").asBoolean()) {
            return "tool failed: " + result.first("tool_result").data();
        }
        String stop = last.data().path("stop_reason").asText();
        return "answer".equals(stop) ? null : "stop reason: " + stop;
    }

    /** The model's time for the run; its last answer is recorded just after its last byte, so wait for it if need be. */
    private ScriptedOpenAiServer.ModelTime modelTime(String run) throws InterruptedException {
        long deadline = System.nanoTime() + MODEL_TIME_WAIT.toNanos();
        ScriptedOpenAiServer.ModelTime time = model.modelTime(run);
        while (time.turns() < LoadModel.TURNS_PER_QUESTION && System.nanoTime() < deadline) {
            Thread.sleep(1);
            time = model.modelTime(run);
        }
        return time;
    }

    // ---------------------------------------------------------------------------------------------
    // The service's processes and the machine
    // ---------------------------------------------------------------------------------------------

    /** The embedded PostgreSQL: the postgres process listening on the service's port. */
    private static Optional<ProcessHandle> postmaster(ServiceProcess service) {
        String port = String.valueOf(service.postgresPort);
        return ProcessHandle.allProcesses()
                .filter(p -> p.info().command().map(c -> c.endsWith("/postgres")).orElse(false))
                .filter(p -> p.info().arguments().map(List::of).map(args -> args.contains(port)).orElse(false))
                .min(Comparator.comparingLong(ProcessHandle::pid));
    }

    /** SIGTERM, as a terminal would; then checks that nothing the service started is left. */
    private static void stop(ServiceProcess service, Optional<ProcessHandle> postmaster) throws Exception {
        List<ProcessHandle> started = Stream.concat(service.jvm().descendants(),
                postmaster.stream().flatMap(p -> Stream.concat(Stream.of(p), p.descendants()))).distinct().toList();
        int exit = service.stop();
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (started.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        List<Long> left = started.stream().filter(ProcessHandle::isAlive).map(ProcessHandle::pid).toList();
        System.out.println("service stopped (exit " + exit + "); " + (left.isEmpty()
                ? "no PostgreSQL process left (" + started.size() + " checked)"
                : "STILL RUNNING: " + left));
        if (!left.isEmpty()) {
            throw new IllegalStateException("processes of the service outlived it: " + left);
        }
    }

    private static Map<String, String> machine() throws IOException {
        Map<String, String> machine = new LinkedHashMap<>();
        machine.put("nproc", String.valueOf(Runtime.getRuntime().availableProcessors()));
        machine.put("cpu", Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                .findFirst().map(l -> l.substring(l.indexOf(':') + 1).strip()).orElse("?"));
        machine.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        machine.put("commit", System.getProperty("bench.commit", "?"));
        machine.put("loadavg_before", loadAverage());
        return machine;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (IOException e) {
            return "?";
        }
    }
}
