#!/usr/bin/env bash
# clients_dist.sh: `make clients-dist` (clients/dist.sh) builds what the registries take, and it is
# complete: the wheel and sdist of clients/python and the npm tarball of clients/node, each with
# the LICENSE; the wheel with py.typed and its metadata (author, license, classifiers, version
# from idtypes.__version__); every file that package.json's "exports" names in the tarball, and
# peer ranges with an upper bound; no relative links out of the package in either README (they
# break on the registries' pages); the versions agree with META.json's. Then the wheel installs
# into a venv offline and imports, and the tarball installs with npm (`npm install
# ./idtypes-<version>.tgz`, as docs/orms.md says) and imports from ES modules and CommonJS. mypy
# checks the type hints (strict, as clients/python/pyproject.toml configures it).
# Needs python3 with setuptools, wheel, venv and pip (scripts/install-deps.sh orm-python), mypy
# (mypy), node and npm (clients).
#
# Run by test/run_tests.sh; needs no cluster.
set -euo pipefail
trap '' PIPE
. "$(dirname "$0")/../lib/nodes.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
nodes_workdir
. "$(dirname "$0")/../lib/report.sh"
. "$(dirname "$0")/../lib/packages.sh"

group_packages orm-python "the Python build's packages"
# node and npm, setuptools and wheel (not the drivers' group: Go, Rust and a JDK are not needed here).
group_packages clients "node and npm"
group_packages mypy "mypy"

version=$(sed -n 's/^   "version": "\(.*\)",$/\1/p' "$top/META.json")
dist=$work/dist
start=$SECONDS
if make -s -C "$top" clients-dist CLIENTS_DIST_DIR="$dist" >"$work/dist.log" 2>&1; then
	ok "make clients-dist: $(sed -n 's|^clients-dist: .*/||p' "$work/dist.log" | paste -sd' ' -) in $((SECONDS - start)) s"
else
	sed 's/^/    /' "$work/dist.log"
	bad "make clients-dist"
	finish 1
fi
wheel=$dist/idtypes-$version-py3-none-any.whl
sdist=$dist/idtypes-$version.tar.gz
tarball=$dist/idtypes-$version.tgz

# The Python packages.
/usr/bin/python3 - "$wheel" "$sdist" "$top/LICENSE" "$version" >"$work/py.log" 2>&1 <<'PY' || true
import sys
import tarfile
import zipfile

wheel, sdist, license_path, version = sys.argv[1:]
license_text = open(license_path).read()
z = zipfile.ZipFile(wheel)
names = z.namelist()
meta = z.read("idtypes-%s.dist-info/METADATA" % version).decode()
problems = []
for need in ("idtypes/py.typed", "idtypes/psycopg.py", "idtypes/psycopg2.py", "idtypes/asyncpg.py",
             "idtypes/sqlalchemy.py", "idtypes/django.py"):
    if need not in names:
        problems.append("wheel: no " + need)
# dist-info/LICENSE (setuptools before 77), dist-info/licenses/LICENSE (from 77: PEP 639).
licenses = [n for n in names if n.startswith("idtypes-%s.dist-info/" % version) and n.endswith("/LICENSE")]
if not licenses or any(z.read(n).decode() != license_text for n in licenses):
    problems.append("wheel: no LICENSE in its dist-info, or not the repository's: %r" % licenses)
for field in ("Version: " + version, "Author: ", "Classifier: License :: OSI Approved :: PostgreSQL License",
              "Classifier: Typing :: Typed", "Requires-Python: ", "Provides-Extra: psycopg"):
    if ("\n" + field) not in meta:
        problems.append("wheel METADATA: no %r" % field)
t = tarfile.open(sdist)
members = t.getnames()
for need in ("LICENSE", "README.md", "pyproject.toml", "idtypes/py.typed"):
    if "idtypes-%s/%s" % (version, need) not in members:
        problems.append("sdist: no " + need)
print("\n".join(problems) or "complete")
PY
if [ "$(cat "$work/py.log")" = complete ]; then
	ok "wheel and sdist: py.typed, LICENSE, the driver modules, metadata (author, license, classifiers, extras), version $version"
else
	sed 's/^/    /' "$work/py.log"
	bad "wheel and sdist are incomplete"
fi

# The npm tarball.
mkdir -p "$work/tgz"
tar xzf "$tarball" -C "$work/tgz"
node - "$work/tgz/package" "$top/LICENSE" "$version" >"$work/npm.log" 2>&1 <<'JS' || true
const fs = require('fs');
const [dir, license, version] = process.argv.slice(2);
const pkg = JSON.parse(fs.readFileSync(`${dir}/package.json`, 'utf8'));
const problems = [];
if (pkg.version !== version) problems.push(`version ${pkg.version}`);
if (!fs.existsSync(`${dir}/LICENSE`) || fs.readFileSync(`${dir}/LICENSE`, 'utf8') !== fs.readFileSync(license, 'utf8')) problems.push('no LICENSE, or not the repository\'s');
for (const [sub, target] of Object.entries(pkg.exports)) {
  for (const file of typeof target === 'string' ? [target] : Object.values(target)) {
    if (!fs.existsSync(`${dir}/${file}`)) problems.push(`exports["${sub}"]: ${file} is not in the tarball`);
  }
}
if (!fs.existsSync(`${dir}/${pkg.types}`)) problems.push(`types: ${pkg.types} is not in the tarball`);
for (const [name, range] of Object.entries(pkg.peerDependencies)) {
  if (!/<\s*\d/.test(range)) problems.push(`peer ${name} ${range} has no upper bound`);
  if (!pkg.peerDependenciesMeta?.[name]?.optional) problems.push(`peer ${name} is not optional`);
}
if (!pkg.author || !pkg.license) problems.push('no author or license');
console.log(problems.join('\n') || 'complete');
JS
if [ "$(cat "$work/npm.log")" = complete ]; then
	ok "npm tarball: LICENSE, every file \"exports\" names, optional peers with upper bounds, version $version"
else
	sed 's/^/    /' "$work/npm.log"
	bad "the npm tarball is incomplete"
fi

# The READMEs as the registries show them: no link to a file outside the package.
if grep -nE '\]\((\.\./|\.\./\.\./)' "$top/clients/python/README.md" "$top/clients/node/README.md" >"$work/links.log"; then
	sed 's/^/    /' "$work/links.log"
	bad "the packages' READMEs link outside the package (broken on PyPI and npm)"
else
	ok "the packages' READMEs link nothing outside the package"
fi

# The type hints: mypy with clients/python/pyproject.toml's [tool.mypy] (strict; the frameworks
# without type information are Any), Debian's mypy and interpreter.
if (cd "$top/clients/python" && /usr/bin/mypy --cache-dir "$work/mypy-cache" --python-executable /usr/bin/python3) >"$work/mypy.log" 2>&1; then
	ok "mypy (strict, pyproject.toml): $(tail -n 1 "$work/mypy.log")"
else
	sed 's/^/    /' "$work/mypy.log"
	bad "mypy finds type errors in clients/python"
fi

# Installed as a user would: the wheel offline into a venv, the tarball by npm.
start=$SECONDS
if (cd "$work" && /usr/bin/python3 -m venv --system-site-packages venv &&
	PIP_CONFIG_FILE=/dev/null PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 venv/bin/pip install -q "$wheel" &&
	venv/bin/python -c 'import idtypes, idtypes.psycopg2, importlib.resources as r; print(idtypes.__version__, r.files("idtypes").joinpath("py.typed").is_file())') >"$work/venv.log" 2>&1 &&
	grep -qx "$version True" "$work/venv.log"; then
	ok "the wheel installs offline into a venv and imports, py.typed installed ($((SECONDS - start)) s)"
else
	sed 's/^/    /' "$work/venv.log"
	bad "the wheel does not install or import"
fi
start=$SECONDS
mkdir -p "$work/project"
echo '{ "name": "user-project", "private": true, "type": "module" }' >"$work/project/package.json"
cp "$tarball" "$work/project/"
# require() of ES modules: Node.js 20.19 and 22.12 on.
node_version=$(node -p process.versions.node)
cjs=1
case "$node_version" in 1[0-9].* | 20.[0-9].* | 20.1[0-8].* | 21.* | 22.[0-9].* | 22.1[01].*) cjs= ;; esac
if (cd "$work/project" && npm install --prefer-offline --no-audit --no-fund --loglevel=error "./idtypes-$version.tgz" &&
	node -e 'import("idtypes").then((m) => console.log("esm", m.GENERATORS.uid11))' &&
	if [ -n "$cjs" ]; then node -e 'console.log("cjs", require("idtypes/pg").parseIdArray("{A,NULL}").length)'; fi) >"$work/npm-install.log" 2>&1 &&
	grep -qx 'esm generate_uid11_xid' "$work/npm-install.log" && { [ -z "$cjs" ] || grep -qx 'cjs 2' "$work/npm-install.log"; }; then
	ok "npm install ./idtypes-$version.tgz: imports from an ES module$([ -n "$cjs" ] && echo " and from CommonJS" || echo " (CommonJS not checked: Node.js $node_version has no require() of ES modules)") ($((SECONDS - start)) s)"
else
	sed 's/^/    /' "$work/npm-install.log"
	bad "npm install of the tarball, or its imports"
fi

finish 7
