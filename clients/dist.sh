#!/usr/bin/env bash
# clients/dist.sh [<directory>]: the client packages as their registries take them, into the
# directory (default: clients/dist): the Python sdist and wheel (setuptools' PEP 517 hooks, run by
# the system's python3 with its own setuptools and wheel: no download) and the npm tarball (npm
# pack). Each is built from a copy of the package, so the sources stay clean. `make clients-dist`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/dist}
mkdir -p "$out"
out=$(cd "$out" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

cp -r "$here/python" "$scratch/python"
rm -rf "$scratch/python/build" "$scratch/python"/*.egg-info
(cd "$scratch/python" && /usr/bin/python3 - "$out" <<'PY'
import sys
from setuptools import build_meta

out = sys.argv[1]  # build_meta rewrites sys.argv
print("clients-dist: %s/%s" % (out, build_meta.build_sdist(out)))
print("clients-dist: %s/%s" % (out, build_meta.build_wheel(out)))
PY
) >"$scratch/python.log" 2>&1 || { cat "$scratch/python.log"; exit 1; }
grep '^clients-dist: ' "$scratch/python.log"

cp -r "$here/node" "$scratch/node"
tarball=$(cd "$scratch/node" && npm pack --silent --pack-destination "$out")
echo "clients-dist: $out/$tarball"
