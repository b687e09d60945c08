package io.sqlagent.tool.audit;

import java.time.Instant;

import com.fasterxml.jackson.databind.JsonNode;

import io.sqlagent.tool.ToolResult;

/**
 * /**
 * One row of the audit log, queued by the call and written later. The result is kept as the call's
 * success and measured when written, from the JSON the REST or MCP answer already wrote (written
 * then only if nobody did), so no result is serialised only to be measured. {@code traceId} is the
 * trace the call belonged to, {@code null} when OpenTelemetry is disabled.
 */
public record AuditRecord(Instant calledAt, String caller, String principal, String conversationId, String callId, String tool,
        String outcome, long durationMicros, ToolResult.Success result, String message, JsonNode arguments, String traceId) {
}
