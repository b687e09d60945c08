DROP SCHEMA IF EXISTS postgres CASCADE
DROP SCHEMA IF EXISTS vault CASCADE
DROP VIEW IF EXISTS public.stats_view
DROP FUNCTION IF EXISTS public.peek_ledger(), public.ledger_notes()
DROP TABLE IF EXISTS public.secret_ledger, public.secret_parts, public.open_parent, public.open_parts CASCADE
