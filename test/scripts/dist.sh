#!/usr/bin/env bash
# dist.sh: `make dist` gives a PGXN archive that stands on its own: META.json valid under the PGXN
# Meta Spec and true to the tree (version = the control file's default_version, the provided file
# and docfile inside the archive), and the unpacked archive builds, installs into a stage the files the checkout installs,
# has the checkout's regression tests, and passes `make installcheck` (a few tests: the checkout
# has just passed them all) on a cluster of its own that loads the extension from that stage
# (test/cluster.sh: through extension_destdir on Debian's servers up to 17, extension_control_path
# on 18+).
#
# Run by test/run_tests.sh (PG_CONFIG, PGBIN, PGPORT and IDTYPES_TEST_START_CLUSTER set).
set -euo pipefail
trap '' PIPE
top=$(cd "$(dirname "$0")/../.." && pwd)

work=$(mktemp -d)
chmod 755 "$work"
cluster=
trap '[ -z "$cluster" ] || bash "$IDTYPES_TEST_START_CLUSTER" stop "$cluster" >/dev/null 2>&1; rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/report.sh"

make -s -C "$top" dist DIST_DIR="$work" >/dev/null
zip=$(ls "$work"/idtypes-*.zip)
echo "archive: $(basename "$zip"), $(unzip -l "$zip" | tail -n 1 | awk '{print $2}') files"
(cd "$work" && unzip -q "$zip")
src=$(ls -d "$work"/idtypes-*/)

# The archive's META.json: valid under the PGXN Meta Spec (tools/pgxn/check_meta.py, whose schema
# test/scripts/pgxn_meta.sh tests), and true to the archive (below).
if out=$(python3 "$top/tools/pgxn/check_meta.py" "$src/META.json" 2>&1); then
	ok "the archive's META.json is valid under the PGXN Meta Spec 1.0.0"
else
	printf '%s\n' "$out" | sed 's/^/  /'
	bad "the archive's META.json is not valid under the PGXN Meta Spec 1.0.0 (above)"
fi
if python3 - "$src" <<'PY'; then ok "META.json agrees with the tree"; else bad "META.json (above)"; fi
import json, os, re, sys
src = sys.argv[1]
meta = json.load(open(os.path.join(src, "META.json")))
problems = []
control = open(os.path.join(src, "idtypes.control")).read()
default = re.search(r"default_version = '([^']+)'", control).group(1)
if meta.get("version") != default + ".0":
    problems.append(f"version {meta.get('version')} is not the control file's {default}")
for name, p in meta.get("provides", {}).items():
    for key in ("file", "docfile"):
        if key in p and not os.path.exists(os.path.join(src, p[key])):
            problems.append(f"provides.{name}.{key} {p[key]} is not in the archive")
    if p.get("version") != meta.get("version"):
        problems.append(f"provides.{name}.version differs")
if not meta.get("prereqs", {}).get("runtime", {}).get("requires", {}).get("PostgreSQL"):
    problems.append("no PostgreSQL prerequisite")
for p in problems:
    print("META.json:", p)
sys.exit(1 if problems else 0)
PY

# Build and install into a stage from the archive alone.
if make -s -C "$src" PG_CONFIG="$PG_CONFIG" >"$work/build.log" 2>&1 &&
	make -s -C "$src" PG_CONFIG="$PG_CONFIG" install DESTDIR="$work/stage" >>"$work/build.log" 2>&1; then
	ok "the unpacked archive builds and installs"
else
	tail -n 30 "$work/build.log"
	bad "the unpacked archive does not build"
	exit 1
fi

# It installs what the checkout installs (no file left out of the archive), and it carries every
# regression test of the checkout: test/run_tests.sh has just run them all against the checkout's
# build, which is built from the same sources (make dist archives HEAD; a file the checkout has but
# HEAD has not shows up here), so the archive's own installcheck runs a few of them, to show that
# its harness works from the archive.
make -s -C "$top" PG_CONFIG="$PG_CONFIG" install DESTDIR="$work/stage-tree" >"$work/install-tree.log" 2>&1 ||
	{ cat "$work/install-tree.log"; bad "make install DESTDIR=... in the checkout"; }
if diff <(cd "$work/stage" && find . -type f | sort) <(cd "$work/stage-tree" && find . -type f | sort) &&
	diff <(cd "$src" && ls sql expected) <(cd "$top" && ls sql expected); then
	ok "the archive installs the checkout's files and has its regression tests ($(ls "$src"/sql/*.sql | wc -l))"
else
	bad "the archive and the checkout differ (above: < archive, > checkout; make dist archives HEAD: commit what is missing)"
fi

# A few of its regression tests, on a cluster that loads idtypes from the stage.
port=$((PGPORT + 70))
cluster=$work/pg
if ! IDTYPES_EXTENSION_DESTDIR=$work/stage PGPORT=$port bash "$IDTYPES_TEST_START_CLUSTER" start "$cluster"; then
	bad "the cluster did not start"
	exit 1
fi
lib=$("$PGBIN/psql" -X -At -h "$cluster" -p "$port" -U postgres -d postgres \
	-c "CREATE EXTENSION idtypes" -c "SELECT idtypes_version()" \
	-c "SELECT setting FROM pg_settings WHERE name = 'extension_destdir'" | tr '\n' ' ')
echo "the cluster loads idtypes $lib"
if make -C "$src" PG_CONFIG="$PG_CONFIG" installcheck REGRESS="init io casts prefix" ISOLATION= PGHOST="$cluster" \
	PGPORT="$port" PGUSER=postgres >"$work/check.log" 2>&1; then
	ok "make installcheck in the unpacked archive: $(grep -cE '\.\.\. ok|^ok [0-9]+ ' "$work/check.log") tests passed"
else
	tail -n 40 "$work/check.log"
	[ -f "$src/regression.diffs" ] && head -n 60 "$src/regression.diffs"
	bad "make installcheck in the unpacked archive"
fi
finish 5
