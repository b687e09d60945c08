-- The agent's knowledge base: query patterns (from knowledge files and saved by the agent),
-- learnings the agent saved, and table notes / business rules from knowledge files. Every table
-- carries a weighted tsvector (name/title weigh most) searched by search_knowledge.

-- array_to_string is only STABLE (it may call any element type's output function), which a
-- generated column refuses; over text[] it is immutable, so this wrapper says so.
CREATE FUNCTION knowledge_words(words text[]) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT coalesce(array_to_string(words, ' '), '') $$;

CREATE TABLE query_pattern (
    id bigserial PRIMARY KEY,
    name text NOT NULL UNIQUE CHECK (char_length(name) BETWEEN 1 AND 100),
    question text NOT NULL,
    sql text NOT NULL,
    summary text NOT NULL,
    tables_used text[] NOT NULL DEFAULT '{}',
    data_quality_notes text,
    source text NOT NULL CHECK (source IN ('file', 'agent')),
    source_file text,
    conversation_id text,
    created_at timestamptz NOT NULL DEFAULT now(),
    search tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', coalesce(name, '') || ' ' || coalesce(question, '')), 'A')
        || setweight(to_tsvector('english', coalesce(summary, '') || ' ' || coalesce(sql, '') || ' '
            || knowledge_words(tables_used)), 'B')) STORED
);

-- The same question (ignoring case and surrounding blanks) is one pattern, not two.
CREATE UNIQUE INDEX query_pattern_question_key ON query_pattern (lower(btrim(question)));
CREATE INDEX query_pattern_search ON query_pattern USING gin (search);

CREATE TABLE learning (
    id bigserial PRIMARY KEY,
    title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 100),
    description text NOT NULL,
    category text NOT NULL CHECK (category IN ('type_error', 'schema_fix', 'query_pattern', 'data_quality', 'business_logic')),
    sql text,
    source text NOT NULL,
    conversation_id text,
    -- The same title in the same category is the same learning, saved once.
    dedup_key text GENERATED ALWAYS AS (md5(lower(btrim(title)) || '|' || category)) STORED UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now(),
    search tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', coalesce(title, '')), 'A')
        || setweight(to_tsvector('english', coalesce(description, '') || ' ' || coalesce(sql, '')), 'B')) STORED
);

CREATE INDEX learning_search ON learning USING gin (search);

CREATE TABLE knowledge_doc (
    id bigserial PRIMARY KEY,
    kind text NOT NULL CHECK (kind IN ('table', 'rule')),
    name text NOT NULL,
    body text NOT NULL,
    source_file text,
    created_at timestamptz NOT NULL DEFAULT now(),
    search tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', coalesce(name, '')), 'A')
        || setweight(to_tsvector('english', coalesce(body, '')), 'B')) STORED,
    UNIQUE (kind, name)
);

CREATE INDEX knowledge_doc_search ON knowledge_doc USING gin (search);
