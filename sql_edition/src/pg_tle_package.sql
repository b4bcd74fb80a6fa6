-- sql_edition/src/pg_tle_package.sql: the pg_tle package around the edition's SQL
-- (tools/gen_sql_edition.py tle): {{version}} its version, {{body}} the SQL.

-- Run by a role with pgtle_admin (or a superuser) in a database where CREATE EXTENSION pg_tle has
-- been run (pg_tle 1.4.0 or later):
--
--   psql -d mydb -f idtypes_sql.pg_tle.sql
--   psql -d mydb -c 'CREATE EXTENSION idtypes_sql'
--
-- pg_tle 1.4 names no schema for the extension (its install_extension has no schema argument):
-- there, create it in its schema yourself:
--
--   psql -d mydb -c 'CREATE SCHEMA IF NOT EXISTS idtypes_sql' -c 'CREATE EXTENSION idtypes_sql SCHEMA idtypes_sql'
--
-- The first time, this installs version {{version}} with pgtle.install_extension. Where an older
-- version is installed already, it adds {{version}} and an update path to it from every installed
-- version, and makes {{version}} the default: ALTER EXTENSION idtypes_sql UPDATE then moves a database
-- to it. Run again, it changes nothing. The extension lives in the schema idtypes_sql.
DO $_idtypes_sql_$
DECLARE
	new_version CONSTANT text := '{{version}}';
	description CONSTANT text := 'ULID, EUID, uid11 (xid), TID and ULID-Flake IDs in uuid and bigint columns';
	body CONSTANT text := $_idtypes_sql_body_$
{{body}}$_idtypes_sql_body_$;
	installed text[];
	old_version text;
	tle_version text;
	tle int[];
BEGIN
	-- names in pg_catalog only (and pgtle's, in full), for this transaction
	PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
	SELECT e.extversion INTO tle_version FROM pg_catalog.pg_extension e WHERE e.extname = 'pg_tle';
	tle := pg_catalog.string_to_array(pg_catalog.split_part(tle_version, '-', 1), '.')::int[];
	IF tle IS NULL OR tle OPERATOR(pg_catalog.<) '{1,4,0}'::int[] THEN
		RAISE EXCEPTION USING ERRCODE = '0A000',
			MESSAGE = pg_catalog.format('idtypes_sql needs pg_tle 1.4.0 or later, not %s', coalesce(tle_version, 'none')),
			HINT = 'Run CREATE EXTENSION pg_tle or ALTER EXTENSION pg_tle UPDATE, or install the plain script idtypes_sql.sql instead.';
	END IF;
	SELECT array_agg(v.version) INTO installed
	FROM pgtle.available_extension_versions() v WHERE v.name = 'idtypes_sql';
	IF installed IS NULL AND tle OPERATOR(pg_catalog.<) '{1,5,0}'::int[] THEN
		-- pg_tle 1.4: no schema argument; CREATE EXTENSION idtypes_sql SCHEMA idtypes_sql
		PERFORM pgtle.install_extension('idtypes_sql', new_version, description, body, NULL);
		RAISE NOTICE 'pg_tle % names no schema for an extension: create it with CREATE SCHEMA IF NOT EXISTS idtypes_sql; CREATE EXTENSION idtypes_sql SCHEMA idtypes_sql;', tle_version;
	ELSIF installed IS NULL THEN
		PERFORM pgtle.install_extension('idtypes_sql', new_version, description, body, NULL, 'idtypes_sql');
	ELSIF new_version = ANY (installed) THEN
		RAISE NOTICE 'idtypes_sql % is installed already', new_version;
	ELSE
		-- the body creates or replaces every object, so it also updates from any older version
		PERFORM pgtle.install_extension_version_sql('idtypes_sql', new_version, body);
		FOREACH old_version IN ARRAY installed LOOP
			PERFORM pgtle.install_update_path('idtypes_sql', old_version, new_version, body);
		END LOOP;
		PERFORM pgtle.set_default_version('idtypes_sql', new_version);
	END IF;
END
$_idtypes_sql_$;
