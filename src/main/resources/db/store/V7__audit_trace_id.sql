-- The trace each tool call belongs to (OpenTelemetry's 32-hex-digit trace id): the agent run, MCP or
-- REST request it was part of, as the done/error events and the log lines name it. Empty for rows
-- written before it was recorded.
ALTER TABLE tool_call_audit ADD COLUMN trace_id text;
