package io.sqlagent.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.sqlagent.Caller;
import io.sqlagent.SnakeCaseJson;
import io.sqlagent.jsonschema.Violation;

class ToolExecutorTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final ToolCallContext CONTEXT = ToolCallContext.of("test");

    private final ToolRegistry registry = new ToolRegistry();
    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    private final List<ToolExecution> completed = Collections.synchronizedList(new ArrayList<>());
    private final ToolCallListener recorder = new ToolCallListener() {
        @Override
        public void started(ToolCall call, ToolCallContext context) {
            events.add("started " + call.name());
        }

        @Override
        public void completed(ToolExecution execution) {
            events.add("completed " + execution.call().name() + " " + execution.outcome().tag());
            completed.add(execution);
        }
    };

    private static final ObjectNode LIMITED = json("""
            {"type": "object",
             "properties": {
               "query": {"type": "string", "minLength": 1},
               "limit": {"type": "integer", "minimum": 1, "maximum": 20}},
             "required": ["query"],
             "additionalProperties": false}
            """);

    private static ObjectNode json(String text) {
        try {
            return (ObjectNode) SnakeCaseJson.MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private ToolExecutor executor(List<BeforeToolHook> before, List<AfterToolHook> after) {
        return new ToolExecutor(registry, before, after, List.of(recorder), ExecutorOptions.defaults());
    }

    private ToolExecutor executor() {
        return executor(List.of(), List.of());
    }

    private static ToolCall call(String name, String arguments) {
        return new ToolCall("call-" + name, name, json(arguments));
    }

    @Test
    void runsAToolAndReturnsItsValue() {
        registry.register(FakeTool.computing("echo", args -> Map.of("said", args.path("text").asText())));

        ToolExecution execution = executor().execute(call("echo", "{\"text\":\"hi\"}"), CONTEXT).await().atMost(WAIT);

        assertEquals(Outcome.SUCCESS, execution.outcome());
        assertEquals("hi", ((ToolResult.Success) execution.result()).value().path("said").asText());
        assertEquals(List.of("started echo", "completed echo success"), events);
        assertFalse(execution.duration().isNegative());
    }

    @Test
    void reportsEveryInvalidArgumentWithoutInvokingTheTool() {
        FakeTool tool = FakeTool.returning("search", "never").withSchema(LIMITED);
        registry.register(tool);

        ToolExecution execution = executor().execute(call("search", "{\"limit\":50,\"extra\":true}"), CONTEXT).await()
                .atMost(WAIT);

        assertEquals(Outcome.INVALID_ARGUMENTS, execution.outcome());
        ToolResult.Failure failure = (ToolResult.Failure) execution.result();
        List<String> arguments = failure.details().stream().map(Violation::argument).toList();
        assertEquals(List.of("query", "limit", "extra"), arguments);
        assertTrue(failure.message().startsWith("Invalid arguments for tool 'search': query is required"), failure.message());
        assertTrue(failure.message().contains("limit must be at most 20"), failure.message());
        assertTrue(tool.calls().isEmpty(), "the tool ran despite invalid arguments");
    }

    @Test
    void aNullOptionalArgumentCountsAsLeftOutButANullRequiredOneIsAnError() {
        FakeTool tool = FakeTool.computing("search", args -> args.has("limit")).withSchema(LIMITED);
        registry.register(tool);

        ToolExecution optional = executor().execute(call("search", "{\"query\":\"x\",\"limit\":null}"), CONTEXT).await()
                .atMost(WAIT);
        ToolExecution required = executor().execute(call("search", "{\"query\":null}"), CONTEXT).await().atMost(WAIT);

        assertEquals(false, ((ToolResult.Success) optional.result()).value().asBoolean(), "the tool saw the null");
        assertFalse(optional.call().arguments().has("limit"));
        assertEquals(Outcome.INVALID_ARGUMENTS, required.outcome());
        assertEquals("query", ((ToolResult.Failure) required.result()).details().get(0).argument());
    }

    @Test
    void anUnknownToolIsAFailureNamingTheAvailableTools() {
        registry.register(FakeTool.returning("alpha", 1));
        registry.register(FakeTool.returning("beta", 2));

        ToolExecution execution = executor().execute(call("gamma", "{}"), CONTEXT).await().atMost(WAIT);

        assertEquals(Outcome.UNKNOWN_TOOL, execution.outcome());
        assertEquals("No tool is named 'gamma'. Available tools: alpha, beta",
                ((ToolResult.Failure) execution.result()).message());
        assertEquals(List.of("started gamma", "completed gamma unknown_tool"), events);
    }

    @Test
    void anExceptionBecomesAFailureWithoutAStackTrace() {
        registry.register(FakeTool.computing("broken", args -> {
            throw new IllegalStateException("disk full");
        }));

        ToolExecution execution = executor().execute(call("broken", "{}"), CONTEXT).await().atMost(WAIT);

        assertEquals(Outcome.FAILURE, execution.outcome());
        String message = ((ToolResult.Failure) execution.result()).message();
        assertTrue(message.startsWith("Tool 'broken' failed (IllegalStateException: disk full) [error id "), message);
        assertFalse(message.contains("\tat "), "stack trace in the message");
    }

    @Test
    void aToolExceptionKeepsItsMessageForTheModel() {
        registry.register(FakeTool.computing("picky", args -> {
            throw new ToolException("table 'x' does not exist; tables are: a, b");
        }));

        ToolExecution execution = executor().execute(call("picky", "{}"), CONTEXT).await().atMost(WAIT);

        assertEquals("table 'x' does not exist; tables are: a, b", ((ToolResult.Failure) execution.result()).message());
    }

    @Test
    void aToolRefusingItsInputIsABlockNotAFailure() {
        registry.register(FakeTool.computing("guarded_sql", args -> {
            throw new ToolRefusedException("DROP statements are not allowed");
        }));

        ToolExecution execution = executor().execute(call("guarded_sql", "{}"), CONTEXT).await().atMost(WAIT);

        assertEquals(Outcome.BLOCKED, execution.outcome());
        assertEquals("DROP statements are not allowed", ((ToolResult.Failure) execution.result()).message());
    }

    @Test
    void aToolThatThrowsBeforeReturningAUniIsAFailureToo() {
        registry.register(new Tool() {
            @Override
            public ToolDescriptor descriptor() {
                return FakeTool.returning("eager", 0).descriptor();
            }

            @Override
            public Uni<ToolResult> invoke(ToolCall call, ToolCallContext context) {
                throw new ToolException("refused at once");
            }
        });

        ToolExecution execution = executor().execute(call("eager", "{}"), CONTEXT).await().atMost(WAIT);

        assertEquals("refused at once", ((ToolResult.Failure) execution.result()).message());
    }

    @Test
    void aSlowToolTimesOut() {
        registry.register(FakeTool.returning("slow", 1).withDelay(Duration.ofSeconds(5)));
        ToolExecutor executor = new ToolExecutor(registry, List.of(), List.of(), List.of(recorder),
                ExecutorOptions.defaults().withTimeout(Duration.ofMillis(100)));

        ToolExecution execution = executor.execute(call("slow", "{}"), CONTEXT).await().atMost(WAIT);

        assertEquals(Outcome.FAILURE, execution.outcome());
        assertTrue(((ToolResult.Failure) execution.result()).message().contains("did not finish within 100 ms"));
    }

    @Test
    void aBeforeHookRewritesTheCall() {
        FakeTool tool = FakeTool.computing("search", args -> args.path("limit").asInt()).withSchema(LIMITED);
        registry.register(tool);
        BeforeToolHook capLimit = (call, descriptor, context) -> {
            ObjectNode capped = call.arguments().deepCopy().put("limit", 5);
            return BeforeToolHook.proceed(call.withArguments(capped));
        };

        ToolExecution execution = executor(List.of(capLimit), List.of())
                .execute(call("search", "{\"query\":\"x\",\"limit\":20}"), CONTEXT).await().atMost(WAIT);

        assertEquals(5, ((ToolResult.Success) execution.result()).value().asInt());
        assertEquals(5, execution.call().arguments().path("limit").asInt());
    }

    @Test
    void rewrittenArgumentsAreValidatedToo() {
        registry.register(FakeTool.returning("search", "never").withSchema(LIMITED));
        BeforeToolHook breaksIt = (call, descriptor, context) -> BeforeToolHook.proceed(
                call.withArguments(call.arguments().deepCopy().put("limit", 99)));

        ToolExecution execution = executor(List.of(breaksIt), List.of())
                .execute(call("search", "{\"query\":\"x\"}"), CONTEXT).await().atMost(WAIT);

        assertEquals(Outcome.INVALID_ARGUMENTS, execution.outcome());
    }

    @Test
    void aBlockIsAResultAndTheToolDoesNotRun() {
        FakeTool tool = FakeTool.returning("drop_everything", "boom");
        registry.register(tool);
        AtomicInteger laterHookRuns = new AtomicInteger();
        BeforeToolHook policy = new BeforeToolHook() {
            @Override
            public int priority() {
                return -10;
            }

            @Override
            public Uni<Decision> before(ToolCall call, ToolDescriptor descriptor, ToolCallContext context) {
                return BeforeToolHook.block("drop_everything is not allowed for caller " + context.caller());
            }
        };
        BeforeToolHook later = (call, descriptor, context) -> {
            laterHookRuns.incrementAndGet();
            return BeforeToolHook.proceed(call);
        };

        ToolExecution execution = executor(List.of(later, policy), List.of())
                .execute(call("drop_everything", "{}"), CONTEXT).await().atMost(WAIT);

        assertEquals(Outcome.BLOCKED, execution.outcome());
        assertEquals("drop_everything is not allowed for caller test", ((ToolResult.Failure) execution.result()).message());
        assertTrue(tool.calls().isEmpty());
        assertEquals(0, laterHookRuns.get(), "hooks after a block must not run");
        assertEquals(List.of("started drop_everything", "completed drop_everything blocked"), events);
    }

    @Test
    void anAfterHookReplacesTheResultAfterListenersSawTheOriginal() {
        registry.register(FakeTool.returning("secret", Map.of("token", "abc123")));
        AfterToolHook redact = execution -> Uni.createFrom().item(
                execution.withResult(ToolResult.success(SnakeCaseJson.MAPPER.valueToTree(Map.of("token", "***")))));

        ToolExecution execution = executor(List.of(), List.of(redact)).execute(call("secret", "{}"), CONTEXT).await()
                .atMost(WAIT);

        assertEquals("***", ((ToolResult.Success) execution.result()).value().path("token").asText());
        assertEquals("abc123", ((ToolResult.Success) completed.get(0).result()).value().path("token").asText());
    }

    @Test
    void failFastRaisesInsteadOfReturningTheFailure() {
        registry.register(FakeTool.computing("broken", args -> {
            throw new ToolException("nope");
        }));
        ExecutorOptions failFast = ExecutorOptions.defaults().withFailFast(true);

        ToolFailedException error = assertThrows(ToolFailedException.class,
                () -> executor().execute(call("broken", "{}"), CONTEXT, failFast).await().atMost(WAIT));

        assertEquals(Outcome.FAILURE, error.execution().outcome());
        assertEquals("Tool 'broken' ended with failure: nope", error.getMessage());
        assertEquals(List.of("started broken", "completed broken failure"), events, "listeners still see the failure");
    }

    @Test
    void aStopEndsTheCallAndSkipsTheRestOfTheBatch() {
        registry.register(FakeTool.computing("halt", args -> {
            throw new ToolStopException("the user cancelled");
        }));
        FakeTool after = FakeTool.returning("after", 1);
        registry.register(after);

        List<ToolExecution> executions = executor()
                .executeAll(List.of(call("halt", "{}"), call("after", "{}")), CONTEXT, ExecutorOptions.defaults())
                .await().atMost(WAIT);

        assertEquals(List.of(Outcome.STOPPED, Outcome.SKIPPED), executions.stream().map(ToolExecution::outcome).toList());
        assertEquals("the user cancelled", ((ToolResult.Stopped) executions.get(0).result()).reason());
        assertTrue(after.calls().isEmpty());
        assertEquals(List.of("started halt", "completed halt stopped", "started after", "completed after skipped"), events);
    }

    @Test
    void stopOnBlockSkipsTheRestOfTheBatchOnlyWhenAsked() {
        FakeTool guarded = FakeTool.returning("guarded", 1);
        FakeTool next = FakeTool.returning("next", 2);
        registry.register(guarded);
        registry.register(next);
        BeforeToolHook policy = (call, descriptor, context) -> call.name().equals("guarded")
                ? BeforeToolHook.block("no")
                : BeforeToolHook.proceed(call);
        ToolExecutor executor = executor(List.of(policy), List.of());
        List<ToolCall> batch = List.of(call("guarded", "{}"), call("next", "{}"));

        List<ToolExecution> stopping = executor.executeAll(batch, CONTEXT, ExecutorOptions.defaults().withStopOnBlock(true))
                .await().atMost(WAIT);
        List<ToolExecution> continuing = executor.executeAll(batch, CONTEXT, ExecutorOptions.defaults())
                .await().atMost(WAIT);

        assertEquals(List.of(Outcome.BLOCKED, Outcome.SKIPPED), stopping.stream().map(ToolExecution::outcome).toList());
        assertEquals(List.of(Outcome.BLOCKED, Outcome.SUCCESS), continuing.stream().map(ToolExecution::outcome).toList());
        assertEquals(1, next.calls().size());
    }

    @Test
    void readOnlyCallsOfABatchRunConcurrently() {
        Overlap overlap = new Overlap();
        registry.register(overlap.tool("left", true));
        registry.register(overlap.tool("right", true));

        List<ToolExecution> executions = executor()
                .executeAll(List.of(call("left", "{}"), call("right", "{}")), CONTEXT, ExecutorOptions.defaults())
                .await().atMost(WAIT);

        assertEquals(2, overlap.maxActive.get(), "the two read-only calls did not overlap");
        assertEquals(List.of("left", "right"), executions.stream().map(e -> e.call().name()).toList(),
                "results keep call order");
    }

    @Test
    void callsThatMayWriteRunOneAtATime() {
        Overlap overlap = new Overlap();
        registry.register(overlap.tool("writer_a", false));
        registry.register(overlap.tool("writer_b", false));

        executor().executeAll(List.of(call("writer_a", "{}"), call("writer_b", "{}")), CONTEXT, ExecutorOptions.defaults())
                .await().atMost(WAIT);

        assertEquals(1, overlap.maxActive.get());
        assertEquals(2, overlap.calls.get());
    }

    @Test
    void withoutConcurrencyReadOnlyCallsRunOneAtATime() {
        Overlap overlap = new Overlap();
        registry.register(overlap.tool("reader_a", true));
        registry.register(overlap.tool("reader_b", true));

        executor().executeAll(List.of(call("reader_a", "{}"), call("reader_b", "{}")), CONTEXT,
                ExecutorOptions.defaults().withConcurrent(false)).await().atMost(WAIT);

        assertEquals(1, overlap.maxActive.get());
        assertEquals(2, overlap.calls.get());
    }

    /** Tools that measure how many of them run at the same time; each waits up to 300 ms for a partner. */
    private static final class Overlap {
        final AtomicInteger active = new AtomicInteger();
        final AtomicInteger maxActive = new AtomicInteger();
        final AtomicInteger calls = new AtomicInteger();
        final CountDownLatch partner = new CountDownLatch(2);

        Tool tool(String name, boolean readOnly) {
            FakeTool shape = FakeTool.returning(name, 0).withMetadata(ToolMetadata.titled(name).withReadOnly(readOnly));
            return new Tool() {
                @Override
                public ToolDescriptor descriptor() {
                    return shape.descriptor();
                }

                @Override
                public Uni<ToolResult> invoke(ToolCall call, ToolCallContext context) {
                    return Uni.createFrom().item(() -> {
                        calls.incrementAndGet();
                        maxActive.accumulateAndGet(active.incrementAndGet(), Math::max);
                        partner.countDown();
                        try {
                            partner.await(300, TimeUnit.MILLISECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        active.decrementAndGet();
                        return ToolResult.success(SnakeCaseJson.MAPPER.getNodeFactory().nullNode());
                    }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
                }
            };
        }
    }

    @Test
    void aFailingListenerDoesNotBreakTheCall() {
        registry.register(FakeTool.returning("fine", 1));
        ToolCallListener broken = execution -> {
            throw new IllegalStateException("listener bug");
        };
        ToolExecutor executor = new ToolExecutor(registry, List.of(), List.of(), List.of(broken, recorder),
                ExecutorOptions.defaults());

        ToolExecution execution = executor.execute(call("fine", "{}"), CONTEXT).await().atMost(WAIT);

        assertInstanceOf(ToolResult.Success.class, execution.result());
        assertEquals(List.of("started fine", "completed fine success"), events);
    }

    @Test
    void aCallerWithoutTheToolsScopeIsRefusedBeforeHooksAndTheToolNeverRuns() {
        FakeTool runSql = FakeTool.returning("run_sql", "rows");
        FakeTool search = FakeTool.returning("search_knowledge", "found");
        registry.register(runSql);
        registry.register(search);
        List<String> hooked = new ArrayList<>();
        BeforeToolHook hook = (call, descriptor, context) -> {
            hooked.add(call.name());
            return BeforeToolHook.proceed(call);
        };
        var reader = new ToolCallContext("rest", Optional.empty(), Caller.of("kim", Set.of("knowledge:read"), Map.of()));

        ToolExecution refused = executor(List.of(hook), List.of()).execute(call("run_sql", "{}"), reader).await().atMost(WAIT);
        ToolExecution allowed = executor(List.of(hook), List.of()).execute(call("search_knowledge", "{}"), reader).await()
                .atMost(WAIT);
        ToolExecution unknown = executor().execute(call("nothing_here", "{}"), reader).await().atMost(WAIT);

        assertEquals(Outcome.FORBIDDEN, refused.outcome());
        assertEquals("Tool 'run_sql' needs scope 'sql:read', which caller 'kim' does not have (it has knowledge:read)",
                ((ToolResult.Failure) refused.result()).message());
        assertEquals(List.of(), runSql.calls());
        assertEquals(Outcome.SUCCESS, allowed.outcome());
        assertEquals(List.of("search_knowledge"), hooked);
        // Listeners (metrics, audit) see the refusal with its principal.
        assertTrue(completed.stream().anyMatch(e -> e.outcome() == Outcome.FORBIDDEN
                && e.context().principal().equals(Optional.of("kim"))));
        // An unknown tool's answer lists only the tools the caller may call.
        String listed = ((ToolResult.Failure) unknown.result()).message();
        assertTrue(listed.contains("search_knowledge") && !listed.contains("run_sql"), listed);
    }
}
