-- tools/sql/type_operators.sql: a type's comparison operators, its btree, hash and BRIN operator
-- classes (minmax-multi on 14+) and min and max, in the install script (tools/gen_sql.py, after
-- the functions they call); {{t}} is the type's name.

CREATE OPERATOR = (
	LEFTARG = {{t}}, RIGHTARG = {{t}}, FUNCTION = {{t}}_eq,
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, MERGES, HASHES
);
CREATE OPERATOR <> (
	LEFTARG = {{t}}, RIGHTARG = {{t}}, FUNCTION = {{t}}_ne,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
	LEFTARG = {{t}}, RIGHTARG = {{t}}, FUNCTION = {{t}}_lt,
	COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
	LEFTARG = {{t}}, RIGHTARG = {{t}}, FUNCTION = {{t}}_le,
	COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
	LEFTARG = {{t}}, RIGHTARG = {{t}}, FUNCTION = {{t}}_gt,
	COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
	LEFTARG = {{t}}, RIGHTARG = {{t}}, FUNCTION = {{t}}_ge,
	COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel
);

CREATE OPERATOR CLASS {{t}}_ops
DEFAULT FOR TYPE {{t}} USING btree AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 {{t}}_cmp({{t}}, {{t}}),
	FUNCTION 2 {{t}}_sortsupport(internal),
	FUNCTION 4 pg_catalog.btequalimage(oid);

CREATE OPERATOR CLASS {{t}}_ops
DEFAULT FOR TYPE {{t}} USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 {{t}}_hash({{t}}),
	FUNCTION 2 {{t}}_hash_extended({{t}}, int8);

CREATE OPERATOR CLASS {{t}}_minmax_ops
DEFAULT FOR TYPE {{t}} USING brin AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 pg_catalog.brin_minmax_opcinfo(internal),
	FUNCTION 2 pg_catalog.brin_minmax_add_value(internal, internal, internal, internal),
	FUNCTION 3 pg_catalog.brin_minmax_consistent(internal, internal, internal),
	FUNCTION 4 pg_catalog.brin_minmax_union(internal, internal, internal);

-- minmax-multi exists from PostgreSQL 14 on.
DO $$
BEGIN
	IF current_setting('server_version_num')::int >= 140000 THEN
		EXECUTE $sql$
		CREATE OPERATOR CLASS {{t}}_minmax_multi_ops
		FOR TYPE {{t}} USING brin AS
			OPERATOR 1 <,
			OPERATOR 2 <=,
			OPERATOR 3 =,
			OPERATOR 4 >=,
			OPERATOR 5 >,
			FUNCTION 1 pg_catalog.brin_minmax_multi_opcinfo(internal),
			FUNCTION 2 pg_catalog.brin_minmax_multi_add_value(internal, internal, internal, internal),
			FUNCTION 3 pg_catalog.brin_minmax_multi_consistent(internal, internal, internal, int4),
			FUNCTION 4 pg_catalog.brin_minmax_multi_union(internal, internal, internal),
			FUNCTION 5 pg_catalog.brin_minmax_multi_options(internal),
			FUNCTION 11 {{t}}_brin_distance(internal, internal)
		$sql$;
	END IF;
END
$$;

CREATE AGGREGATE min({{t}}) (
	SFUNC = {{t}}_smaller, STYPE = {{t}}, COMBINEFUNC = {{t}}_smaller, SORTOP = <, PARALLEL = SAFE
);
CREATE AGGREGATE max({{t}}) (
	SFUNC = {{t}}_larger, STYPE = {{t}}, COMBINEFUNC = {{t}}_larger, SORTOP = >, PARALLEL = SAFE
);

