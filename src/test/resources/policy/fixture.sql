-- Tables for the table policy tests (TestProfiles.Features denies public.secret_ledger, public.secret_parts,
-- vault.* and postgres.*). Every value a denied table holds starts with TOPSECRET, which no answer may contain.
-- One statement per line: each runs on its own.
CREATE TABLE public.secret_ledger (id int, note text)
INSERT INTO public.secret_ledger SELECT g, 'TOPSECRET-ledger-' || g FROM generate_series(1, 50) g
CREATE TABLE public.secret_ledger_child (extra int) INHERITS (public.secret_ledger)
INSERT INTO public.secret_ledger_child VALUES (51, 'TOPSECRET-child', 0)
CREATE TABLE public.secret_parts (id int, note text) PARTITION BY LIST (id)
CREATE TABLE public.secret_parts_one PARTITION OF public.secret_parts FOR VALUES IN (1)
INSERT INTO public.secret_parts VALUES (1, 'TOPSECRET-part')
CREATE VIEW public.ledger_view AS SELECT id, note FROM public.secret_ledger
CREATE SCHEMA vault
CREATE TABLE public.open_parent (id int, note text)
INSERT INTO public.open_parent VALUES (10, 'open-parent')
CREATE TABLE vault.closed_child () INHERITS (public.open_parent)
INSERT INTO vault.closed_child VALUES (11, 'TOPSECRET-vault')
CREATE TABLE public.open_parts (id int, note text) PARTITION BY LIST (id)
CREATE TABLE public.open_parts_a PARTITION OF public.open_parts FOR VALUES IN (1)
CREATE TABLE vault.open_parts_b PARTITION OF public.open_parts FOR VALUES IN (2)
INSERT INTO public.open_parts VALUES (1, 'open-part'), (2, 'TOPSECRET-partition')
CREATE SCHEMA postgres
CREATE TABLE postgres.payroll (id int, note text)
INSERT INTO postgres.payroll VALUES (1, 'TOPSECRET-payroll')
CREATE FUNCTION public.peek_ledger() RETURNS SETOF text LANGUAGE plpgsql STABLE AS 'BEGIN RETURN QUERY SELECT note FROM public.secret_ledger; END'
CREATE FUNCTION public.ledger_notes() RETURNS SETOF text LANGUAGE sql STABLE AS 'SELECT note FROM public.secret_ledger'
CREATE VIEW public.stats_view AS SELECT tablename, attname, most_common_vals::text AS mcv FROM pg_catalog.pg_stats
CREATE STATISTICS public.ledger_stats (mcv) ON id, note FROM public.secret_ledger
ANALYZE public.secret_ledger
