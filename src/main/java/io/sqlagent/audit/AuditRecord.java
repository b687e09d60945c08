package io.sqlagent.audit;

import java.time.Instant;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One row of the audit log, queued by the call and written later. It holds the size of the call's result
 * ({@code resultBytes}, its JSON's length; the answer reuses that JSON), never the result itself: records
 * wait up to a flush interval (and more while the store is slow), and a queue of results would hold as
 * many results as calls in that time, not as many as are in flight. {@code traceId} is the trace the call
 * belonged to, {@code null} when OpenTelemetry is disabled.
 */
public record AuditRecord(Instant calledAt, String caller, String principal, String conversationId, String callId, String tool,
        String outcome, long durationMicros, int resultBytes, String message, JsonNode arguments, String traceId) {
}
