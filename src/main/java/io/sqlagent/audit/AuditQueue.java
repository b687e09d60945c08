package io.sqlagent.audit;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.sqlagent.tool.ToolExecution;
import io.sqlagent.tool.ToolRegistry;
import io.sqlagent.tool.ToolResult;
import io.sqlagent.trace.Tracing;

/**
 * The call-side half of the audit log: turns a completed execution into a record and adds it to a
 * bounded queue, dropping (and counting) it when the queue is full. Lock-free, a few hundred
 * nanoseconds per call; the writer takes records off in batches.
 */
public final class AuditQueue {

    private final ToolRegistry registry;
    private final int capacity;
    private final Counter dropped;
    private final ConcurrentLinkedQueue<AuditRecord> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();

    public AuditQueue(ToolRegistry registry, int capacity, Counter dropped) {
        this.registry = registry;
        this.capacity = capacity;
        this.dropped = dropped;
    }

    /**
     * Queues the record of {@code execution}, or drops it if the queue is full. Called with the
     * call's span current ({@link io.sqlagent.tool.ToolExecutor}), whose trace the record names.
     */
    public void offer(ToolExecution execution) {
        if (!reserve()) {
            return;
        }
        queue.add(recordOf(execution));
    }

    /** Takes up to {@code max} records, oldest first. */
    public List<AuditRecord> take(int max) {
        List<AuditRecord> batch = new ArrayList<>();
        AuditRecord next;
        while (batch.size() < max && (next = queue.poll()) != null) {
            batch.add(next);
        }
        size.addAndGet(-batch.size());
        return batch;
    }

    /** Returns records whose write failed, to be retried, as far as there is room; returns how many were kept. */
    public int putBack(List<AuditRecord> records) {
        int kept = 0;
        for (AuditRecord record : records) {
            if (reserve()) {
                queue.add(record);
                kept++;
            }
        }
        return kept;
    }

    /** Counts a record the store refused, dropped by the writer. */
    public void countDropped() {
        dropped.increment();
    }

    /** How many records wait. */
    public int size() {
        return size.get();
    }

    private boolean reserve() {
        if (size.incrementAndGet() > capacity) {
            size.decrementAndGet();
            dropped.increment();
            return false;
        }
        return true;
    }

    private AuditRecord recordOf(ToolExecution execution) {
        ToolResult result = execution.result();
        // Its size only (the JSON is written once and kept by the result, for the answer): see AuditRecord.
        int resultBytes = result instanceof ToolResult.Success success ? success.json().length : 0;
        String message = null;
        if (result instanceof ToolResult.Failure failure) {
            message = failure.message();
        } else if (result instanceof ToolResult.Stopped stopped) {
            message = stopped.reason();
        }
        boolean withArguments = registry.descriptor(execution.call().name()).map(d -> d.metadata().auditArguments())
                .orElse(false);
        return new AuditRecord(execution.startedAt(), execution.context().caller(),
                execution.context().principal().orElse(null),
                execution.context().conversationId().orElse(null), execution.call().id(), execution.call().name(),
                execution.outcome().tag(), execution.duration().toNanos() / 1000, resultBytes, message,
                withArguments ? execution.call().arguments() : null, Tracing.currentTraceId());
    }
}
