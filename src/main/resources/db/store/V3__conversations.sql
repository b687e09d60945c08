-- Agent conversations: one row per conversation, its messages in order (the question, the
-- model's turns with their tool calls, every tool result) and one row per run (question → answer).
-- Any replica can continue a conversation: nothing about it lives only in memory.

CREATE TABLE conversation (
    id         uuid PRIMARY KEY,
    principal  text,
    title      text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE conversation_message (
    id              bigserial PRIMARY KEY,
    conversation_id uuid NOT NULL REFERENCES conversation (id) ON DELETE CASCADE,
    run_id          uuid NOT NULL,
    role            text NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
    content         text,
    -- assistant turns: [{"id", "name", "arguments"}] the model asked for
    tool_calls      jsonb,
    -- tool results: which call, which tool, how it ended and how long it took
    tool_call_id    text,
    tool_name       text,
    outcome         text,
    duration_ms     bigint,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX conversation_message_conversation_idx ON conversation_message (conversation_id, id);

CREATE TABLE conversation_run (
    id             uuid PRIMARY KEY,
    conversation_id uuid NOT NULL REFERENCES conversation (id) ON DELETE CASCADE,
    question       text NOT NULL,
    started_at     timestamptz NOT NULL,
    duration_ms    bigint NOT NULL,
    iterations     integer NOT NULL,
    input_tokens   bigint NOT NULL,
    output_tokens  bigint NOT NULL,
    -- answer | max_iterations | stopped | error | timeout | cancelled
    outcome        text NOT NULL,
    error_code     text
);
CREATE INDEX conversation_run_conversation_idx ON conversation_run (conversation_id, started_at);
