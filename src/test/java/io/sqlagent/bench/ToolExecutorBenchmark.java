package io.sqlagent.bench;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.audit.AuditQueue;
import io.sqlagent.jsonschema.Param;
import io.sqlagent.tool.AfterToolHook;
import io.sqlagent.tool.BeforeToolHook;
import io.sqlagent.tool.ExecutorOptions;
import io.sqlagent.tool.Outcome;
import io.sqlagent.tool.ToolCall;
import io.sqlagent.tool.ToolCallContext;
import io.sqlagent.tool.ToolCallListener;
import io.sqlagent.tool.ToolDefinition;
import io.sqlagent.tool.ToolDescriptor;
import io.sqlagent.tool.ToolExecution;
import io.sqlagent.tool.ToolExecutor;
import io.sqlagent.tool.ToolMetrics;
import io.sqlagent.tool.ToolRegistry;
import io.sqlagent.tool.ToolResult;
import io.sqlagent.tool.TypedTool;

/**
 * The {@link ToolExecutor}'s own overhead per call, for a trivial typed tool with a five-property
 * schema: lookup, one before-hook, validation, the timeout guard, metrics, the audit enqueue and
 * one after-hook. Overhead is {@link #executeValidCall} minus {@link #invokeToolDirectly}, which
 * is the tool alone (binding the arguments, running, turning the result into JSON). Run it with
 * {@code bench/tool-executor.sh}; figures and method are in {@code docs/benchmarks.md}.
 *
 * <p>
 * The executor is built outside CDI with its public constructor, so no Quarkus runtime, Vert.x
 * or database is involved and nothing but the executor's path is timed. Sample mode is used
 * because the goal is stated as a median: JMH then reports percentiles, not just a mean.
 *
 * <p>
 * This class has no {@code @Test}, so Surefire never runs it; JMH's annotation processor
 * generates its harness while the tests compile.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Threads(1)
public class ToolExecutorBenchmark {

    /** The valid call: every property present and within its constraints. */
    static final String VALID = """
            {"text": "hello", "count": 3, "loud": false, "tone": "calm", "labels": ["a", "b"]}""";

    /** Three violations: text longer than 20, count above 10, four labels where 3 are allowed. */
    static final String INVALID = """
            {"text": "this text is far too long", "count": 99, "loud": true, "tone": "calm",
             "labels": ["a", "b", "c", "d"]}""";

    private ToolExecutor executor;
    private EchoTool tool;
    private AuditEnqueue audit;
    private ScheduledExecutorService drainer;
    private ToolCall validCall;
    private ToolCall invalidCall;
    private final ToolCallContext context = new ToolCallContext("agent", Optional.of("conversation-1"),
            new io.sqlagent.Caller("alice", java.util.Set.of(), true, java.util.Map.of()));

    @Setup(Level.Trial)
    public void setUp() throws JsonProcessingException {
        ToolRegistry registry = new ToolRegistry();
        tool = new EchoTool();
        registry.register(tool);
        MeterRegistry meters = new SimpleMeterRegistry();
        audit = new AuditEnqueue(registry, meters);
        executor = new ToolExecutor(registry, List.of(new PassBefore()), List.of(new PassAfter()),
                List.of(new ToolMetrics(meters), audit), ExecutorOptions.defaults());
        // Parsed once: the executor, hooks and tool only read the arguments, so one tree serves every call.
        validCall = new ToolCall("call-1", EchoTool.NAME, (ObjectNode) SnakeCaseJson.MAPPER.readTree(VALID));
        invalidCall = new ToolCall("call-2", EchoTool.NAME, (ObjectNode) SnakeCaseJson.MAPPER.readTree(INVALID));

        // Fail here rather than publish figures for a path other than the one named.
        ToolExecution valid = executeValidCall();
        if (valid.outcome() != Outcome.SUCCESS) {
            throw new IllegalStateException("the valid call did not succeed: " + valid.result());
        }
        ToolExecution invalid = executeInvalidCall();
        if (invalid.outcome() != Outcome.INVALID_ARGUMENTS
                || ((ToolResult.Failure) invalid.result()).details().size() != 3) {
            throw new IllegalStateException("the invalid call did not fail with 3 violations: " + invalid.result());
        }

        // The real audit log drains its queue from a timer on another thread; do the same, often
        // enough that the queue never reaches its capacity at benchmark rates (so every call pays
        // for a real enqueue, not the cheaper drop) and memory stays flat.
        drainer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "audit-drainer");
            thread.setDaemon(true);
            return thread;
        });
        drainer.scheduleWithFixedDelay(audit::drain, 10, 10, TimeUnit.MILLISECONDS);
    }

    @TearDown(Level.Iteration)
    public void drainAudit() {
        audit.drain();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        drainer.shutdown();
        drainer.awaitTermination(5, TimeUnit.SECONDS);
        // Every call arms a 60 s timeout on Mutiny's scheduler; a cancelled one stays queued until
        // its deadline, and the scheduler's thread is not a daemon, so the forked JVM would linger
        // until JMH kills it. A fresh default executor shuts the old one down.
        Infrastructure.setDefaultExecutor();
        if (audit.dropped() > 0) {
            // Dropping is cheaper than enqueueing: the figures would not be for the path they name.
            throw new IllegalStateException(audit.dropped() + " audit records were dropped; drain the queue more often");
        }
    }

    /** The whole lifecycle of a valid call. */
    @Benchmark
    public ToolExecution executeValidCall() {
        return executor.execute(validCall, context).await().indefinitely();
    }

    /** A call refused by validation: the tool never runs, the message lists three violations. */
    @Benchmark
    public ToolExecution executeInvalidCall() {
        return executor.execute(invalidCall, context).await().indefinitely();
    }

    /** The baseline: the tool's own work for the same arguments, without the executor. */
    @Benchmark
    public ToolResult invokeToolDirectly() {
        return tool.invoke(validCall, context).await().indefinitely();
    }

    enum Tone {
        CALM,
        LOUD
    }

    /** A trivial tool: five constrained arguments, a small map back at once. */
    @ToolDefinition(name = EchoTool.NAME, description = "Repeats a text. For benchmarks.", readOnly = true)
    public static class EchoTool extends TypedTool<EchoTool.Arguments> {

        static final String NAME = "bench_echo";

        public record Arguments(
                @Param(description = "What to repeat", maxLength = 20) String text,
                @Param(description = "How often", minimum = 1, maximum = 10) int count,
                @Param(description = "Upper-case it") boolean loud,
                @Param(description = "Tone") Tone tone,
                @Param(description = "Labels", maxItems = 3) List<String> labels) {
        }

        @Override
        protected Uni<?> run(Arguments arguments, ToolCallContext context) {
            return Uni.createFrom().item(Map.of("text", arguments.text(), "count", arguments.count()));
        }
    }

    /** A before-hook that lets every call through unchanged, so the hook chain is paid for but decides nothing. */
    static final class PassBefore implements BeforeToolHook {
        @Override
        public Uni<Decision> before(ToolCall call, ToolDescriptor descriptor, ToolCallContext context) {
            return BeforeToolHook.proceed(call);
        }
    }

    /** An after-hook that passes every execution on unchanged. */
    static final class PassAfter implements AfterToolHook {
        @Override
        public Uni<ToolExecution> after(ToolExecution execution) {
            return Uni.createFrom().item(execution);
        }
    }

    /**
     * The audit log's call-side half: the real {@link AuditQueue} that {@code AuditLog} uses (the
     * log itself also needs CDI, Vert.x and the store for its timed database writes, which happen
     * off the call path), with a drain that stands in for the writer.
     */
    static final class AuditEnqueue implements ToolCallListener {

        private static final int QUEUE_CAPACITY = 10_000;
        private static final int BATCH_SIZE = 500;

        private final AuditQueue queue;
        private final Counter dropped;

        AuditEnqueue(ToolRegistry registry, MeterRegistry meters) {
            this.dropped = Counter.builder("sqlagent.audit.dropped").register(meters);
            this.queue = new AuditQueue(registry, QUEUE_CAPACITY, dropped);
        }

        @Override
        public void completed(ToolExecution execution) {
            queue.offer(execution);
        }

        /** Takes everything queued, in batches as the real flush does, and forgets it. */
        void drain() {
            while (queue.take(BATCH_SIZE).size() == BATCH_SIZE) {
                // keep taking until a short batch says the queue is empty
            }
        }

        long dropped() {
            return (long) dropped.count();
        }
    }
}
