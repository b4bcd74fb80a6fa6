#!/usr/bin/env bash
# reference.sh: the SQL reference (docs/reference.md) cannot drift from what the extension installs,
# and every object carries a COMMENT.
#
# Lists every function, operator, type, cast and operator class that CREATE EXTENSION idtypes (and
# idtypes_uuidv7) makes a member of the extension (pg_depend), and every idtypes.* setting (pg_settings), and checks with
# test/lib/reference_check.py that docs/reference.md names each; then that each member
# has a description (obj_description). Run by test/run_tests.sh (PGHOST/PGPORT/PGUSER/PGBIN set).
set -euo pipefail
trap '' PIPE
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

psql_q() { "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -At "$@"; }
psql_q -d postgres -c "DROP DATABASE IF EXISTS idt_reference" -c "CREATE DATABASE idt_reference" 2>/dev/null
psql_q -d idt_reference -c "CREATE EXTENSION idtypes" -c "SET client_min_messages = warning" \
	-c "CREATE EXTENSION idtypes_uuidv7"

members="SELECT classid, objid FROM pg_depend
	WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
	  AND refobjid IN (SELECT oid FROM pg_extension WHERE extname IN ('idtypes', 'idtypes_uuidv7'))"
# The settings exist once the library is loaded: through one of its functions, which finds the
# library where CREATE EXTENSION did (LOAD 'idtypes' looks only in the server's own directory).
psql_q -d idt_reference -F $'\t' -c "DO \$\$ BEGIN PERFORM idtypes_version(); END \$\$" -c "
WITH m AS ($members)
SELECT 'function', p.proname, '' FROM m JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
UNION
SELECT 'operator', o.oprname, concat_ws(',', format_type(nullif(o.oprleft, 0), NULL), format_type(o.oprright, NULL))
FROM m JOIN pg_operator o ON m.classid = 'pg_operator'::regclass AND o.oid = m.objid
UNION
SELECT 'type', t.typname, '' FROM m JOIN pg_type t ON m.classid = 'pg_type'::regclass AND t.oid = m.objid
WHERE t.typcategory <> 'A'
UNION
SELECT 'cast', format_type(c.castsource, NULL) || ' -> ' || format_type(c.casttarget, NULL),
       format_type(c.castsource, NULL) || E'\t' || format_type(c.casttarget, NULL)
FROM m JOIN pg_cast c ON m.classid = 'pg_cast'::regclass AND c.oid = m.objid
UNION
SELECT 'opclass', c.opcname, '' FROM m JOIN pg_opclass c ON m.classid = 'pg_opclass'::regclass AND c.oid = m.objid
UNION
SELECT 'setting', name, '' FROM pg_settings WHERE name LIKE 'idtypes.%'
ORDER BY 1, 2, 3" >"$work/objects.tsv"

. "$(dirname "$0")/../lib/report.sh"
echo "$(wc -l <"$work/objects.tsv") objects: $(cut -f1 "$work/objects.tsv" | sort | uniq -c | awk '{printf "%s %s, ", $1, $2}')"
if python3 "$top/test/lib/reference_check.py" "$top/docs/reference.md" "$work/objects.tsv"; then
	ok "docs/reference.md names every function, operator, type, cast, operator class and setting"
else
	bad "objects missing from docs/reference.md (above)"
fi

uncommented=$(psql_q -d idt_reference -c "
WITH m AS ($members)
SELECT pg_describe_object(classid, objid, 0) FROM m
WHERE obj_description(objid, classid::regclass::name) IS NULL ORDER BY 1")
total=$(psql_q -d idt_reference -c "WITH m AS ($members) SELECT count(*) FROM m")
if [ -z "$uncommented" ]; then
	ok "all $total objects of the extension have a COMMENT"
else
	echo "$uncommented"
	bad "objects without a COMMENT (above)"
fi
psql_q -d postgres -c "DROP DATABASE idt_reference"
finish 2
