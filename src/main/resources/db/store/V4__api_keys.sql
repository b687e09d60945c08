-- API keys for programs (sqlagent.auth.mode=api-key): the secret is never stored, only its SHA-256.
CREATE TABLE api_key (
    name         text PRIMARY KEY CHECK (char_length(name) BETWEEN 1 AND 64),
    key_id       text NOT NULL UNIQUE,
    secret_hash  bytea NOT NULL,
    scopes       text[] NOT NULL,
    attributes   jsonb NOT NULL DEFAULT '{}',
    created_by   text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz
);
