package io.sqlagent.tool;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.node.ObjectNode;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.quarkus.arc.All;
import io.quarkus.logging.Log;
import io.smallrye.mutiny.Uni;
import io.sqlagent.ErrorIds;
import io.sqlagent.MessageText;
import io.sqlagent.Redaction;
import io.sqlagent.jsonschema.Violation;
import io.sqlagent.trace.Tracing;

/**
 * Runs tool calls through one lifecycle, for every caller: look up the tool; check the caller's
 * scopes ({@link ToolScopes}: one place, so REST, MCP and the agent agree); before-hooks (rewrite
 * or block); validate the arguments against the full schema; invoke, with a timeout, turning any
 * exception into a failure the model can act on; notify listeners (metrics, audit); after-hooks.
 * A tool's {@link ToolStopException} ends the call as stopped and skips the rest of its batch.
 */
@ApplicationScoped
public class ToolExecutor {

    private static final int MAX_MESSAGE_LENGTH = 500;

    private final ToolRegistry registry;
    private final List<BeforeToolHook> beforeHooks;
    private final List<AfterToolHook> afterHooks;
    private final List<ToolCallListener> listeners;
    private final ExecutorOptions defaults;
    private final ToolScopes scopes;
    private final Tracing tracing;

    @Inject
    ToolExecutor(ToolRegistry registry, @All List<BeforeToolHook> beforeHooks, @All List<AfterToolHook> afterHooks,
            @All List<ToolCallListener> listeners, ToolsConfig config, ToolScopes scopes, Tracing tracing) {
        this(registry, beforeHooks, afterHooks, listeners, config.executorOptions(), scopes, tracing);
    }

    /** An executor outside CDI, for tests and benchmarks. */
    public ToolExecutor(ToolRegistry registry, List<BeforeToolHook> beforeHooks, List<AfterToolHook> afterHooks,
            List<ToolCallListener> listeners, ExecutorOptions defaults) {
        this(registry, beforeHooks, afterHooks, listeners, defaults, new ToolScopes(registry), Tracing.noop());
    }

    private ToolExecutor(ToolRegistry registry, List<BeforeToolHook> beforeHooks, List<AfterToolHook> afterHooks,
            List<ToolCallListener> listeners, ExecutorOptions defaults, ToolScopes scopes, Tracing tracing) {
        this.scopes = scopes;
        this.tracing = tracing;
        this.registry = registry;
        this.beforeHooks = beforeHooks.stream().sorted(Comparator.comparingInt(BeforeToolHook::priority)).toList();
        this.afterHooks = afterHooks.stream().sorted(Comparator.comparingInt(AfterToolHook::priority)).toList();
        this.listeners = List.copyOf(listeners);
        this.defaults = defaults;
    }

    /** The options used when a caller gives none. */
    public ExecutorOptions defaults() {
        return defaults;
    }

    /** Runs one call with the default options. */
    public Uni<ToolExecution> execute(ToolCall call, ToolCallContext context) {
        return execute(call, context, defaults);
    }

    /** Runs one call; its span is a child of the current one. */
    public Uni<ToolExecution> execute(ToolCall call, ToolCallContext context, ExecutorOptions options) {
        return execute(call, context, options, Context.current());
    }

    private Uni<ToolExecution> execute(ToolCall call, ToolCallContext context, ExecutorOptions options, Context parent) {
        return Uni.createFrom().deferred(() -> run(call, context, options, parent));
    }

    /**
     * Runs a batch of calls (one model turn) and returns one execution per call, in call order.
     * With {@code concurrent}, consecutive read-only calls run together; every other call runs
     * alone, after everything before it. After a stop, or a block under {@code stopOnBlock}, the
     * remaining calls are skipped (and recorded as such).
     */
    public Uni<List<ToolExecution>> executeAll(List<ToolCall> calls, ToolCallContext context, ExecutorOptions options) {
        return runGroups(groups(calls, options), 0, new ArrayList<>(calls.size()), context, options, Context.current());
    }

    private Uni<ToolExecution> run(ToolCall call, ToolCallContext context, ExecutorOptions options, Context parent) {
        Span span = ToolCallSpan.start(tracing, parent, call, context);
        Context traced = parent.with(span);
        long started = System.nanoTime();
        Instant startedAt = Instant.now();
        for (ToolCallListener listener : listeners) {
            listener.started(call, context);
        }
        ToolRegistry.Entry entry = registry.entry(call.name()).orElse(null);
        String forbidden = entry == null ? null : scopes.refusal(context.identity(), entry.descriptor()).orElse(null);
        Uni<Completed> outcome;
        if (entry == null) {
            outcome = Uni.createFrom().item(new Completed(call, unknownTool(call.name(), context)));
        } else if (forbidden != null) {
            outcome = Uni.createFrom()
                    .item(new Completed(call, new ToolResult.Failure(Outcome.FORBIDDEN, forbidden, List.of())));
        } else {
            outcome = beforeHooks(call, entry.descriptor(), context, 0)
                    .flatMap(gate -> pass(gate, entry, context, options, traced));
        }
        // Steps a call does not need are left out of the chain: each Mutiny operator captures and restores the
        // call's context around its callback, a cost every call paid.
        Uni<ToolExecution> executed = outcome
                .map(completed -> {
                    ToolExecution execution = new ToolExecution(completed.call(), context, completed.result(), startedAt,
                            Duration.ofNanos(System.nanoTime() - started));
                    notifyCompleted(execution, traced);
                    return execution;
                });
        if (!afterHooks.isEmpty()) {
            executed = executed.flatMap(execution -> afterHooks(execution, 0));
        }
        Uni<ToolExecution> ended = Tracing.ending(span, Tracing.within(traced, executed), ToolCallSpan::completed);
        if (!options.failFast()) {
            return ended;
        }
        return ended.flatMap(execution -> execution.result() instanceof ToolResult.Failure
                ? Uni.createFrom().failure(new ToolFailedException(execution))
                : Uni.createFrom().item(execution));
    }

    private record Completed(ToolCall call, ToolResult result) {
    }

    /** The call after the before-hooks: possibly rewritten, possibly blocked. */
    private record Gate(ToolCall call, String blockReason) {
    }

    private Uni<Gate> beforeHooks(ToolCall call, ToolDescriptor descriptor, ToolCallContext context, int index) {
        if (index == beforeHooks.size()) {
            return Uni.createFrom().item(new Gate(call, null));
        }
        return beforeHooks.get(index).before(call, descriptor, context)
                .flatMap(decision -> decision instanceof BeforeToolHook.Proceed proceed
                        ? beforeHooks(proceed.call(), descriptor, context, index + 1)
                        : Uni.createFrom().item(new Gate(call, ((BeforeToolHook.Block) decision).reason())));
    }

    private Uni<Completed> pass(Gate gate, ToolRegistry.Entry entry, ToolCallContext context, ExecutorOptions options,
            Context traced) {
        if (gate.blockReason() != null) {
            return Uni.createFrom().item(new Completed(gate.call(), ToolResult.blocked(gate.blockReason())));
        }
        ToolCall call = withoutNullOptionals(gate.call(), entry);
        List<Violation> violations = entry.schema().validate(call.arguments());
        if (!violations.isEmpty()) {
            return Uni.createFrom().item(new Completed(call, invalidArguments(call.name(), violations)));
        }
        return invoke(entry, call, context, options, traced).map(result -> new Completed(call, result));
    }

    /**
     * Models often send {@code null} for an optional argument they mean to leave out; treat it as
     * left out rather than failing the call. A null for a required argument is still an error.
     */
    private static ToolCall withoutNullOptionals(ToolCall call, ToolRegistry.Entry entry) {
        ObjectNode arguments = call.arguments();
        ObjectNode cleaned = null;
        var fields = arguments.fields();
        while (fields.hasNext()) {
            var field = fields.next();
            if (field.getValue().isNull() && !entry.required().contains(field.getKey())) {
                if (cleaned == null) {
                    cleaned = arguments.deepCopy();
                }
                cleaned.remove(field.getKey());
            }
        }
        return cleaned == null ? call : call.withArguments(cleaned);
    }

    private Uni<ToolResult> invoke(ToolRegistry.Entry entry, ToolCall call, ToolCallContext context, ExecutorOptions options,
            Context traced) {
        // Started with the call's span current: what the tool starts (a statement's span) is its child.
        return Tracing.within(traced, Uni.createFrom().deferred(() -> entry.tool().invoke(call, context.withTrace(traced))))
                .ifNoItem().after(options.timeout()).failWith(TimeoutException::new)
                .onFailure().recoverWithItem(failure -> resultOf(call.name(), failure, options));
    }

    private static ToolResult resultOf(String tool, Throwable failure, ExecutorOptions options) {
        if (failure instanceof ToolStopException stop) {
            return new ToolResult.Stopped(stop.getMessage());
        }
        if (failure instanceof ToolForbiddenException forbidden) {
            return new ToolResult.Failure(Outcome.FORBIDDEN, truncate(forbidden.getMessage()), List.of());
        }
        if (failure instanceof ToolRefusedException refused) {
            return ToolResult.blocked(truncate(refused.getMessage()));
        }
        if (failure instanceof ToolArgumentsException invalid) {
            return ToolResult.invalidArguments(truncate(invalid.getMessage()), invalid.violations());
        }
        if (failure instanceof ToolUnavailableException unavailable) {
            return new ToolResult.Failure(Outcome.UNAVAILABLE, truncate(unavailable.getMessage()), List.of());
        }
        if (failure instanceof ToolException expected) {
            return ToolResult.failure(truncate(expected.getMessage()));
        }
        if (failure instanceof TimeoutException) {
            return ToolResult.failure("Tool '" + tool + "' did not finish within " + options.timeout().toMillis()
                    + " ms and was abandoned; try a narrower request.");
        }
        String errorId = ErrorIds.warned(failure, "Tool '" + tool + "' failed unexpectedly");
        String detail = failure.getMessage() == null ? "" : ": " + failure.getMessage();
        return ToolResult.failure(truncate("Tool '" + tool + "' failed (" + failure.getClass().getSimpleName() + detail
                + ") [error id " + errorId + "]"));
    }

    private ToolResult unknownTool(String name, ToolCallContext context) {
        List<String> names = scopes.visible(context.identity(), registry.list()).stream().map(ToolDescriptor::name).limit(30)
                .toList();
        return new ToolResult.Failure(Outcome.UNKNOWN_TOOL,
                "No tool is named '" + truncate(name, 64) + "'. Available tools: " + String.join(", ", names), List.of());
    }

    private static ToolResult invalidArguments(String tool, List<Violation> violations) {
        String summary = violations.stream()
                .map(v -> v.argument() + " " + v.problem())
                .collect(Collectors.joining("; "));
        return ToolResult.invalidArguments("Invalid arguments for tool '" + tool + "': " + summary, violations);
    }

    /** Tells the listeners, with the call's span current (the audit log records its trace id). */
    private void notifyCompleted(ToolExecution execution, Context traced) {
        try (Scope ignored = traced.makeCurrent()) {
            notifyCompleted(execution);
        }
    }

    private void notifyCompleted(ToolExecution execution) {
        for (ToolCallListener listener : listeners) {
            try {
                listener.completed(execution);
            } catch (RuntimeException e) {
                Log.warnf(e, "Tool call listener %s failed", listener.getClass().getName());
            }
        }
    }

    private Uni<ToolExecution> afterHooks(ToolExecution execution, int index) {
        if (index == afterHooks.size()) {
            return Uni.createFrom().item(execution);
        }
        return afterHooks.get(index).after(execution).flatMap(next -> afterHooks(next, index + 1));
    }

    private List<List<ToolCall>> groups(List<ToolCall> calls, ExecutorOptions options) {
        List<List<ToolCall>> groups = new ArrayList<>();
        List<ToolCall> readOnlyRun = new ArrayList<>();
        for (ToolCall call : calls) {
            boolean readOnly = registry.descriptor(call.name()).map(d -> d.metadata().readOnly()).orElse(false);
            if (options.concurrent() && readOnly) {
                readOnlyRun.add(call);
                continue;
            }
            if (!readOnlyRun.isEmpty()) {
                groups.add(readOnlyRun);
                readOnlyRun = new ArrayList<>();
            }
            groups.add(List.of(call));
        }
        if (!readOnlyRun.isEmpty()) {
            groups.add(readOnlyRun);
        }
        return groups;
    }

    private Uni<List<ToolExecution>> runGroups(List<List<ToolCall>> groups, int index, List<ToolExecution> done,
            ToolCallContext context, ExecutorOptions options, Context parent) {
        if (index == groups.size()) {
            return Uni.createFrom().item(done);
        }
        List<ToolCall> group = groups.get(index);
        String skipReason = skipReason(done, options);
        Uni<List<ToolExecution>> executions;
        if (skipReason != null) {
            executions = Uni.createFrom()
                    .item(group.stream().map(call -> skipped(call, context, skipReason, parent)).toList());
        } else if (group.size() == 1) {
            executions = execute(group.get(0), context, options, parent).map(List::of);
        } else {
            executions = Uni.join().all(group.stream().map(call -> execute(call, context, options, parent)).toList())
                    .andFailFast();
        }
        return executions.flatMap(results -> {
            done.addAll(results);
            return runGroups(groups, index + 1, done, context, options, parent);
        });
    }

    private static String skipReason(List<ToolExecution> done, ExecutorOptions options) {
        for (ToolExecution execution : done) {
            if (execution.outcome() == Outcome.STOPPED) {
                return "Not run: an earlier call stopped the run.";
            }
            if (options.stopOnBlock() && execution.outcome() == Outcome.BLOCKED) {
                return "Not run: an earlier call in this batch was blocked.";
            }
        }
        return null;
    }

    private ToolExecution skipped(ToolCall call, ToolCallContext context, String reason, Context parent) {
        Span span = ToolCallSpan.start(tracing, parent, call, context);
        for (ToolCallListener listener : listeners) {
            listener.started(call, context);
        }
        ToolExecution execution = new ToolExecution(call, context, new ToolResult.Failure(Outcome.SKIPPED, reason, List.of()),
                Instant.now(), Duration.ZERO);
        notifyCompleted(execution, parent.with(span));
        ToolCallSpan.completed(span, execution);
        span.end();
        return execution;
    }

    private static String truncate(String message) {
        return truncate(message, MAX_MESSAGE_LENGTH);
    }

    /** Every message a caller sees passes here: credentials a failure quotes are hidden, then it is cut. */
    private static String truncate(String message, int max) {
        if (message == null) {
            return "";
        }
        String redacted = Redaction.redact(message);
        return MessageText.shorten(redacted, max);
    }
}
