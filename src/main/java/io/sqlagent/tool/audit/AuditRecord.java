package io.sqlagent.tool.audit;

import java.time.Instant;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One row of the audit log, queued by the call and written later. The result is kept as a tree
 * and measured when written, so the call does not pay for serialising it. {@code traceId} is the
 * trace the call belonged to, {@code null} when OpenTelemetry is disabled.
 */
public record AuditRecord(Instant calledAt, String caller, String principal, String conversationId, String callId, String tool,
        String outcome, long durationMicros, JsonNode result, String message, JsonNode arguments, String traceId) {
}
