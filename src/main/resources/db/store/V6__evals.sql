-- Evaluation runs and their per-case results, so runs can be read from any replica and compared.

CREATE TABLE eval_run (
    id          uuid PRIMARY KEY,
    suite       text NOT NULL,
    model       text NOT NULL,
    -- running | done | failed
    status      text NOT NULL CHECK (status IN ('running', 'done', 'failed')),
    total       integer NOT NULL,
    started_at  timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    -- why a failed run failed
    error       text,
    -- the settings it ran with: concurrency, budget, tags
    settings    jsonb NOT NULL
);
CREATE INDEX eval_run_started_idx ON eval_run (started_at DESC);

CREATE TABLE eval_case_result (
    run_id    uuid NOT NULL REFERENCES eval_run (id) ON DELETE CASCADE,
    case_id   text NOT NULL,
    position  integer NOT NULL,
    category  text NOT NULL,
    passed    boolean NOT NULL,
    -- the whole case report: grades with reasons, SQL, answer, trajectory, cost
    result    jsonb NOT NULL,
    PRIMARY KEY (run_id, case_id)
);
