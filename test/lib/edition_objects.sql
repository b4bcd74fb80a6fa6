-- What a database's SQL edition is made of, for comparing two installs: the schema idtypes_sql's
-- functions (pg_get_functiondef), its sequences and their privileges, and the schema's privileges,
-- one sorted line each (test/scripts/sql_edition_dump.py, sql_edition_migrations.py).
SELECT line FROM (
	SELECT pg_get_functiondef(p.oid) AS line FROM pg_proc p WHERE p.pronamespace = 'idtypes_sql'::regnamespace
	UNION ALL
	SELECT format('sequence %s %s %s %s', c.relname, s.seqtypid::regtype, s.seqcycle, c.relacl)
	FROM pg_class c JOIN pg_sequence s ON s.seqrelid = c.oid WHERE c.relnamespace = 'idtypes_sql'::regnamespace
	UNION ALL
	SELECT format('schema %s %s', n.nspname, n.nspacl) FROM pg_namespace n WHERE n.nspname = 'idtypes_sql'
) s ORDER BY line;
