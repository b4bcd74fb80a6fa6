"""The query that finds the extension's types in the connected database (shared by the drivers)."""

from typing import Tuple

# (schema, typname, oid, array oid) of the five types, wherever the extension was created (its schema need
# not be on the search_path): the types that belong to the extension idtypes.
TYPES_QUERY = (
    "SELECT n.nspname::text, t.typname::text, t.oid::int, t.typarray::int FROM pg_catalog.pg_type t"
    " JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace"
    " JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_type'::pg_catalog.regclass"
    " AND d.objid = t.oid AND d.deptype = 'e'"
    " JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid AND e.extname = 'idtypes'"
    " WHERE t.typname IN ('uid11', 'timeid', 'ulidflake', 'ulid', 'euid')"
)

TypeRow = Tuple[str, str, int, int]
