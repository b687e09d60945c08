-- Vector collections in the store, their source of truth: every replica keeps a local Lucene index
-- of each collection and follows vector_change to stay equal to the store.

CREATE TABLE vector_collection (
    name       text PRIMARY KEY,
    -- the length of every vector in the collection
    dimension  integer NOT NULL CHECK (dimension BETWEEN 1 AND 4096),
    -- the model that embedded its texts (all-minilm-l6-v2 | openai)
    embedding  text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE vector_document (
    collection text NOT NULL REFERENCES vector_collection (name),
    id         text NOT NULL,
    text       text NOT NULL,
    -- a JSON object of strings, numbers and booleans, kept as written
    metadata   text NOT NULL,
    vector     real[] NOT NULL,
    PRIMARY KEY (collection, id)
);

-- The record of changes replicas follow. Writers hold one advisory lock while they write, so ids
-- are committed in increasing order: a replica that has applied every change up to seq n has
-- seen every change that will ever have a smaller seq.
CREATE TABLE vector_change (
    seq        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    collection text NOT NULL REFERENCES vector_collection (name),
    operation  text NOT NULL CHECK (operation IN ('insert', 'update', 'delete')),
    -- the documents changed; a replica copies their current rows (or drops them when gone)
    ids        text[] NOT NULL,
    changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX vector_change_changed_at_idx ON vector_change (changed_at);

-- One row: which store this is (a replica's local indexes name the store they follow) and up to
-- which seq old changes were deleted (a replica that has applied less rebuilds from the documents).
CREATE TABLE vector_log (
    singleton      boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    store_id       text NOT NULL,
    pruned_through bigint NOT NULL DEFAULT 0
);
INSERT INTO vector_log (store_id) VALUES (md5(random()::text || clock_timestamp()::text));
