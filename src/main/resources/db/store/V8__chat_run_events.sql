-- Resumable chat streams: every event of a chat run, so a client that lost its connection can
-- reconnect with Last-Event-ID, to this replica or another, and get what it missed.
-- Bounded: at most sqlagent.chat.resume.max-events events of a run are kept (its final done/error
-- always), and runs older than sqlagent.chat.resume.retention are deleted with their events.
CREATE TABLE chat_run (
    run_id uuid PRIMARY KEY,
    principal text NOT NULL,
    conversation_id uuid,
    started_at timestamptz NOT NULL DEFAULT now(),
    -- Set with the run's final event: a reader that sees it has every event there is.
    ended_at timestamptz,
    last_seq integer NOT NULL DEFAULT 0,
    -- The last time a resumed stream read the run: a run whose own client went away keeps going
    -- while someone reads it (sqlagent.chat.resume.detached-timeout).
    read_at timestamptz,
    -- DELETE /api/chat/runs/{id} on a replica that does not run it: the one that does cancels it.
    cancel_requested boolean NOT NULL DEFAULT false
);

CREATE INDEX chat_run_started_at ON chat_run (started_at);

CREATE TABLE chat_run_event (
    run_id uuid NOT NULL REFERENCES chat_run (run_id) ON DELETE CASCADE,
    seq integer NOT NULL,
    name text NOT NULL,
    data text NOT NULL,
    PRIMARY KEY (run_id, seq)
);
