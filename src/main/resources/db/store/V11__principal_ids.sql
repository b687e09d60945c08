-- Principal ids with their kind (docs/security.md): oidc:<issuer>#<subject>, key:<key id>,
-- internal:<what>, anonymous. Owners stored before were names any kind could produce (an OIDC
-- token whose preferred_username was "key:ci" or "eval" owned what that key or the evaluations
-- owned), so they are rewritten in place:
--   key:<name> of a key that still exists  -> key:<its key id>
--   eval, eval-judge, sqlagent             -> internal:eval, internal:eval-judge, internal:service
--   anonymous, key:bootstrap, NULL         -> unchanged
--   anything else (an OIDC user's name, a deleted key) -> legacy:<name>, which no credential
--     produces: the subject behind an old name is not known, so nobody inherits it by guessing it.
-- An administrator may hand legacy rows to their owner with UPDATE ... SET principal = 'oidc:...'.
-- Eval runs get an owner: the principal who starts one (runs from before have none).

CREATE FUNCTION sqlagent_principal_id(old text) RETURNS text
    LANGUAGE sql STABLE
    AS $$
        SELECT CASE
            WHEN old IS NULL THEN NULL
            WHEN old IN ('anonymous', 'key:bootstrap') THEN old
            WHEN old = 'eval' THEN 'internal:eval'
            WHEN old = 'eval-judge' THEN 'internal:eval-judge'
            WHEN old = 'sqlagent' THEN 'internal:service'
            WHEN old LIKE 'key:%' AND EXISTS (SELECT 1 FROM api_key k WHERE 'key:' || k.name = old)
                THEN (SELECT 'key:' || k.key_id FROM api_key k WHERE 'key:' || k.name = old)
            ELSE 'legacy:' || old
        END
    $$;

UPDATE conversation SET principal = sqlagent_principal_id(principal) WHERE principal IS NOT NULL;
UPDATE chat_run SET principal = sqlagent_principal_id(principal);
UPDATE tool_call_audit SET principal = sqlagent_principal_id(principal) WHERE principal IS NOT NULL;
UPDATE usage_window SET principal = sqlagent_principal_id(principal);
UPDATE learning SET proposed_by = sqlagent_principal_id(proposed_by), reviewed_by = sqlagent_principal_id(reviewed_by)
    WHERE proposed_by IS NOT NULL OR reviewed_by IS NOT NULL;
UPDATE query_pattern SET proposed_by = sqlagent_principal_id(proposed_by), reviewed_by = sqlagent_principal_id(reviewed_by)
    WHERE proposed_by IS NOT NULL OR reviewed_by IS NOT NULL;
UPDATE api_key SET created_by = sqlagent_principal_id(created_by) WHERE created_by IS NOT NULL;

DROP FUNCTION sqlagent_principal_id(text);

ALTER TABLE eval_run ADD COLUMN principal text;
