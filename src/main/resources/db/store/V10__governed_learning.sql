-- Governed learning: what the agent saves is proposed, approved or rejected (approved at once
-- while sqlagent.learning.approval=auto, which is what every earlier row was), with its
-- provenance: the question asked in the conversation (asked), who proposed it, who reviewed it, when and why.
-- Validated queries also keep the shape and digest of their result, so a check can flag one that
-- no longer runs or whose result drifted. Learnings keep their embedding (all-MiniLM-L6-v2,
-- unit length) to find a second learning that says the same in other words.

ALTER TABLE learning
    ADD COLUMN status text NOT NULL DEFAULT 'approved' CHECK (status IN ('proposed', 'approved', 'rejected')),
    ADD COLUMN asked text,
    ADD COLUMN proposed_by text,
    ADD COLUMN reviewed_by text,
    ADD COLUMN reviewed_at timestamptz,
    ADD COLUMN review_note text,
    ADD COLUMN embedding real[];

ALTER TABLE query_pattern
    ADD COLUMN status text NOT NULL DEFAULT 'approved' CHECK (status IN ('proposed', 'approved', 'rejected')),
    ADD COLUMN asked text,
    ADD COLUMN proposed_by text,
    ADD COLUMN reviewed_by text,
    ADD COLUMN reviewed_at timestamptz,
    ADD COLUMN review_note text,
    -- [{"name", "type"}] of the result when the query was validated
    ADD COLUMN result_columns jsonb,
    ADD COLUMN result_rows integer,
    -- SHA-256 (hex) of the result's rows, independent of their order
    ADD COLUMN result_digest text,
    -- the last check: ok | failed (it no longer runs) | drifted (its result changed)
    ADD COLUMN check_status text CHECK (check_status IN ('ok', 'failed', 'drifted')),
    ADD COLUMN check_message text,
    ADD COLUMN checked_at timestamptz;

CREATE INDEX learning_proposed_idx ON learning (created_at) WHERE status = 'proposed';
CREATE INDEX query_pattern_proposed_idx ON query_pattern (created_at) WHERE status = 'proposed';
