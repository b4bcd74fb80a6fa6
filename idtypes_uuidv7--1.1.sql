/* idtypes_uuidv7--1.1.sql: PostgreSQL 18's uuidv7() and UUID functions, for PostgreSQL 15 to 17 */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION idtypes_uuidv7" to load this file. \quit

-- On 18 and later these functions call core's own (one uuidv7() clock per backend), so that a
-- database moved to 18 by pg_upgrade or by a dump, whose defaults name them, keeps working.
DO $$
BEGIN
	IF current_setting('server_version_num')::int >= 180000 THEN
		RAISE NOTICE 'PostgreSQL % has uuidv7() and these functions built in', current_setting('server_version')
			USING DETAIL = 'The functions of idtypes_uuidv7 call the built-in ones.',
			      HINT = 'Once no column default or view names them, DROP EXTENSION idtypes_uuidv7.';
	END IF;
END $$;

-- The comments name the functions by their schema: on 18+ an unqualified name would find core's,
-- which pg_catalog holds (searched first), and set its comment instead.
CREATE FUNCTION uuidv7() RETURNS uuid
	AS 'MODULE_PATHNAME', 'idtypes_uuidv7'
	LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.uuidv7() IS 'generate UUID version 7 (as PostgreSQL 18''s uuidv7())';

CREATE FUNCTION uuidv7(shift interval) RETURNS uuid
	AS 'MODULE_PATHNAME', 'idtypes_uuidv7_interval'
	LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.uuidv7(interval) IS
	'generate UUID version 7 with a timestamp shifted by the interval (as PostgreSQL 18''s uuidv7(interval))';

CREATE FUNCTION uuid_extract_timestamp(uuid) RETURNS timestamptz
	AS 'MODULE_PATHNAME', 'idtypes_uuid_extract_timestamp'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.uuid_extract_timestamp(uuid) IS
	'extract timestamp from UUID versions 1 and 7 (as PostgreSQL 18''s uuid_extract_timestamp())';

CREATE FUNCTION uuid_extract_version(uuid) RETURNS smallint
	AS 'MODULE_PATHNAME', 'idtypes_uuid_extract_version'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.uuid_extract_version(uuid) IS 'extract version from RFC 9562 UUID (as PostgreSQL 18''s uuid_extract_version())';
