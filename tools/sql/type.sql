-- tools/sql/type.sql: a type in the install script (tools/gen_sql.py, after its I/O functions):
-- {{t}} is its name, {{storage}} its length and storage, {{description}} its comment.

CREATE TYPE {{t}} (
	INPUT = {{t}}_in,
	OUTPUT = {{t}}_out,
	RECEIVE = {{t}}_recv,
	SEND = {{t}}_send,
	{{storage}}
);

COMMENT ON TYPE {{t}} IS '{{description}}';

