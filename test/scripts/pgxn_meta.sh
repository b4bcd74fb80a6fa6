#!/usr/bin/env bash
# pgxn_meta.sh: META.json is valid under the PGXN Meta Spec 1.0.0, as PGXN checks an upload:
# tools/pgxn/check_meta.py validates it against tools/pgxn/meta-spec-1.0.0.schema.json (the spec
# written as a JSON schema). The schema is shown to reject what the spec forbids, each in a copy of
# META.json with one change (a version that is not semantic, an unknown license, a provided
# extension without its file, a prerequisite version "15", an unknown key, a name with a space,
# another spec version, an unknown release status), and to accept what it allows (a version
# range, a custom x_ key, a license object, a list of maintainers).
#
# Needs no server (python3-jsonschema, in scripts/install-deps.sh base); run by test/run_tests.sh.
set -uo pipefail
trap '' PIPE
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/report.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
check=$top/tools/pgxn/check_meta.py

if out=$(python3 "$check" "$top/META.json" 2>&1); then
	ok "META.json is valid under the PGXN Meta Spec 1.0.0 (tools/pgxn/meta-spec-1.0.0.schema.json)"
else
	printf '%s\n' "$out" | sed 's/^/  /'
	bad "META.json is not valid under the PGXN Meta Spec 1.0.0 (above)"
fi

# variant <change to m, the parsed META.json, in Python>: the file with that change.
variant() {
	python3 - "$top/META.json" "$work/META.json" "$1" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(m, open(sys.argv[2], "w"), indent=3)
PY
}

rejects=(
	'm["version"] = "1.1"'
	'm["license"] = "PostgreSQL License"'
	'del m["provides"]["idtypes"]["file"]'
	'm["prereqs"]["runtime"]["requires"]["PostgreSQL"] = "15"'
	'm["homepage"] = "https://example.org/"'
	'm["name"] = "id types"'
	'm["meta-spec"]["version"] = "2.0.0"'
	'm["release_status"] = "beta"'
	'del m["maintainer"]'
)
wrong=()
for change in "${rejects[@]}"; do
	variant "$change"
	status=0
	python3 "$check" "$work/META.json" >"$work/out" 2>&1 || status=$?
	[ "$status" -eq 1 ] || wrong+=("accepted (status $status): $change")
done
if [ ${#wrong[@]} -eq 0 ]; then
	ok "the schema rejects each of ${#rejects[@]} changes the spec forbids (a version 1.1, license 'PostgreSQL License', ...)"
else
	printf '  %s\n' "${wrong[@]}"
	bad "the schema accepts what the PGXN Meta Spec forbids (above)"
fi

accepts=(
	'm["prereqs"]["runtime"]["requires"]["PostgreSQL"] = ">= 15.0.0, < 20.0.0"'
	'm["x_anything"] = {"a": 1}'
	'm["license"] = {"PostgreSQL": "https://www.postgresql.org/about/licence/"}'
	'm["maintainer"] = ["A <a@example.org>", "B <b@example.org>"]'
	'm["version"] = "1.2.0beta1"; m["provides"]["idtypes"]["version"] = "1.2.0beta1"'
	'm["resources"] = {"bugtracker": {"web": "https://example.org/issues"}, "repository": {"url": "git://example.org/x.git", "type": "git"}}'
)
wrong=()
for change in "${accepts[@]}"; do
	variant "$change"
	python3 "$check" "$work/META.json" >"$work/out" 2>&1 || wrong+=("rejected: $change: $(tr '\n' ' ' <"$work/out")")
done
if [ ${#wrong[@]} -eq 0 ]; then
	ok "the schema accepts each of ${#accepts[@]} forms the spec allows (version ranges, x_ keys, a license object, ...)"
else
	printf '  %s\n' "${wrong[@]}"
	bad "the schema rejects what the PGXN Meta Spec allows (above)"
fi
finish 3
