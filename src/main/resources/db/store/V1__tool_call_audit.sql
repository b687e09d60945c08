-- Every tool call from every caller (REST, agent, MCP), written behind the call in batches.
CREATE TABLE tool_call_audit (
    id              bigserial PRIMARY KEY,
    called_at       timestamptz NOT NULL,
    caller          text        NOT NULL,
    principal       text,
    conversation_id text,
    call_id         text        NOT NULL,
    tool            text        NOT NULL,
    outcome         text        NOT NULL,
    duration_us     bigint      NOT NULL,
    result_bytes    integer     NOT NULL,
    message         text,
    arguments       jsonb
);
CREATE INDEX tool_call_audit_called_at_idx ON tool_call_audit (called_at);
CREATE INDEX tool_call_audit_tool_idx ON tool_call_audit (tool, called_at);
