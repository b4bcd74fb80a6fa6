#!/usr/bin/env bash
# check_symbols.sh: every C symbol that the current install scripts (idtypes--1.2.sql and
# idtypes_uuidv7--1.1.sql) name (AS 'MODULE_PATHNAME', 'symbol') is written out in src/ as PG_FUNCTION_INFO_V1(symbol), in a .cpp or .h file, so that
# grep -rw <symbol> src finds its entry point. Prints each symbol that is not and exits 1 if there
# is one; exits 0 otherwise.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts="idtypes--1.2.sql idtypes_uuidv7--1.1.sql"
# shellcheck disable=SC2086
symbols=$(grep -oh "MODULE_PATHNAME', '[a-z0-9_]*'" $scripts | sed "s/.*', '//; s/'//" | sort -u)
if [ -z "$symbols" ]; then
	echo "check_symbols: no MODULE_PATHNAME symbols found in $scripts" >&2
	exit 1
fi

total=0
missing=0
for symbol in $symbols; do
	total=$((total + 1))
	if ! grep -rqwF --include='*.cpp' --include='*.h' "PG_FUNCTION_INFO_V1($symbol)" src; then
		echo "check_symbols: $symbol: no PG_FUNCTION_INFO_V1($symbol) in src/" >&2
		missing=$((missing + 1))
	fi
done

if [ "$missing" -ne 0 ]; then
	echo "check_symbols: $missing of $total symbols not written out in src/" >&2
	exit 1
fi
echo "check_symbols: all $total symbols written out in src/"
