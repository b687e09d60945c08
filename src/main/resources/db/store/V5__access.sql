-- Identity and access: conversations listed per owner, the audit log searched per principal, and
-- the counters of per-principal limits (fixed windows, shared by every replica).
CREATE INDEX conversation_principal_idx ON conversation (principal, updated_at DESC, id DESC);
CREATE INDEX tool_call_audit_principal_idx ON tool_call_audit (principal, called_at);

CREATE TABLE usage_window (
    principal    text        NOT NULL,
    -- chat_runs | tool_calls
    kind         text        NOT NULL,
    window_start timestamptz NOT NULL,
    used         bigint      NOT NULL,
    PRIMARY KEY (principal, kind, window_start)
);
