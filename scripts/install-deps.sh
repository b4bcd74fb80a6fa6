#!/usr/bin/env bash
# install-deps.sh: install the Debian packages a task needs, if any is missing (one apt run).
#
#   scripts/install-deps.sh [group...]      groups: base (default), build, server, citus, pg_tle, drivers, fuzz, format, chroot,
#                                           foreign, cross-<arch>, deb, debsrc, image, clients, pgxn, partman,
#                                           timescaledb, orm-python, orm-ruby, mypy
#
# base: what building idtypes and running its tests against one PostgreSQL major needs: the
# compiler, the server and its headers, Catch2 (v2 or v3, whichever the release has), unzip,
# python3, git, libfaketime (the clock-fault test steps the server's clock with it),
# libipc-run-perl (the TAP tests: PostgreSQL::Test::Cluster runs its programs with it) and
# python3-jsonschema (META.json against the PGXN Meta Spec), and ccache with IDTYPES_CCACHE=1. The major is IDTYPES_PG_MAJOR, else
# that of $PG_CONFIG, else of `pg_config` on PATH when a server's headers are installed, else the
# newest installed server, else the one the release packages by default. A major that only
# Debian's experimental suite carries (19 until it reaches sid) is installed from there, with the
# libpq it needs.
# build: what building idtypes and running it on a throwaway cluster needs (`make demo`): the
# compiler, and the server of that major and its headers.
# server: the server of that major and make, what testing a package built elsewhere needs
# (test/deb/deb_install.sh with IDTYPES_DEB_DIR). citus, pg_tle: what scripts/vendor-build.sh needs on top of base to build them; drivers: what test/scripts/drivers.py
# needs (psycopg 3, the PostgreSQL JDBC driver and a JDK, Node.js with npm, Go with pgx v4, Rust's
# cargo with tokio-postgres); fuzz: clang 14 and its libFuzzer runtime for `make fuzz`; format:
# clang-format 14, for `make check-format` (test/scripts/format_check.sh); chroot:
# mmdebstrap, for scripts/chroot.sh; foreign: qemu-user-static and binfmt-support, for its chroots
# of architectures the CPU cannot run, and mmdebstrap (with arch-test, which it asks for a foreign
# chroot), for scripts/sysroot.sh and those chroots; cross-<arch> (a Debian
# architecture: cross-arm64, cross-s390x, cross-i386): the host's C and C++ cross compilers for it, which
# scripts/sysroot.sh builds with; deb: Debian's packaging tools and the headers of every
# supported server, for `make deb`; debsrc: lintian, autopkgtest and mmdebstrap, for
# test/deb/debsrc.sh; image: umoci and skopeo, for `make image`; clients: setuptools, wheel and
# npm, for `make clients-dist`; pgxn: PGXN's client, for
# test/pgxn/pgxn_install.sh; partman and timescaledb: the release's pg_partman and TimescaleDB
# packages for the major (as base picks it), for test/scripts/partman.sh and
# test/scripts/timescaledb.sh.
# orm-python: what test/scripts/orm_python.py needs: the release's SQLAlchemy, psycopg 2 and 3,
# asyncpg and Django (whichever of them apt has), and python3-venv, setuptools, wheel and pip for the
# offline `pip install` of clients/python, and Alembic. orm-ruby: ActiveRecord and ruby-pg, for
# test/scripts/orm_ruby.py. mypy: the type check of clients/python (test/scripts/clients_dist.py, on
# the host alone: not in orm-python, whose chroots of 17 and 19 spent about 10 CPU seconds each
# installing and byte-compiling it for nothing).
# pooler: PgBouncer, for test/scripts/sql_edition_pooler.py.
# Works on Debian 12, 13 and sid (the releases it is tested on).
set -euo pipefail

log() { echo "install-deps.sh: $*" >&2; }

# The newest postgresql-NN that apt has a candidate for (the release's default server).
default_major() {
	apt-cache depends postgresql 2>/dev/null | sed -n 's/^ *Depends: postgresql-\([0-9][0-9]*\)$/\1/p' | head -n 1
}

pg_major() {
	local m= cfg=${PG_CONFIG:-}
	if [ -n "${IDTYPES_PG_MAJOR:-}" ]; then
		echo "$IDTYPES_PG_MAJOR"
		return
	fi
	if [ -z "$cfg" ] && command -v pg_config >/dev/null && [ -n "$(ls /usr/lib/postgresql/*/bin/pg_config 2>/dev/null)" ]; then
		cfg=pg_config
	fi
	if [ -n "$cfg" ]; then
		m=$("$cfg" --version 2>/dev/null | sed -nE 's/^PostgreSQL ([0-9]+).*/\1/p') || true
		# A PG_CONFIG path that does not exist yet still names its major.
		[ -n "$m" ] || m=$(printf '%s\n' "$cfg" | sed -nE 's|.*/postgresql/([0-9]+)/bin/pg_config$|\1|p')
	fi
	[ -n "$m" ] || m=$(ls /usr/lib/postgresql 2>/dev/null | grep -E '^[0-9]+$' | sort -n | tail -n 1) || true
	[ -n "$m" ] || m=$(default_major) || true
	echo "$m"
}

is_installed() {
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
}

updated=
apt_update() {
	[ -n "$updated" ] && return
	apt-get update -q >&2
	updated=1
}

# only_experimental <package>: the archive has it, but in no suite other than experimental.
only_experimental() {
	local versions
	versions=$(apt-cache madison "$1" 2>/dev/null || true)
	[ -n "$versions" ] && ! grep -vq ' experimental/' <<<"$versions"
}

packages=()
experimental=()
groups=("${@:-base}")
for group in "${groups[@]}"; do
	case $group in
	base | build)
		major=$(pg_major)
		if [ -z "$major" ]; then
			log "cannot tell which PostgreSQL major to install for (set PG_CONFIG or IDTYPES_PG_MAJOR)"
			exit 2
		fi
		packages+=(build-essential "postgresql-$major" "postgresql-server-dev-$major")
		[ "$group" = build ] || packages+=(catch2 unzip python3 git libfaketime libipc-run-perl python3-jsonschema)
		# IDTYPES_CCACHE=1 (CI): compiles go through ccache (the Makefile).
		[ "${IDTYPES_CCACHE:-0}" != 1 ] || packages+=(ccache)
		;;
	server)
		# What testing a package built elsewhere needs (test/deb/deb_install.sh with IDTYPES_DEB_DIR):
		# the server, its client programs with pg_regress and PGXS's makefiles, and make.
		major=$(pg_major)
		packages+=("postgresql-$major" make)
		;;
	citus) packages+=(autoconf liblz4-dev libzstd-dev libkrb5-dev libssl-dev libicu-dev libcurl4-openssl-dev) ;;
	# pg_tle: flex for its configuration file parser, and the GSSAPI headers that the server's
	# libpq-be.h includes.
	pg_tle) packages+=(flex libkrb5-dev) ;;
	drivers)
		packages+=(python3-psycopg libpostgresql-jdbc-java)
		# Go and pgx v4, Rust and tokio-postgres (with tokio, whose rt and macros features the Rust
		# snippet uses: librust-tokio-dev provides every feature): Debian's compilers and the
		# sources they build offline, even where a Go SDK or rustup is on PATH.
		packages+=(golang-go golang-github-jackc-pgx-v4-dev cargo rustc librust-tokio-postgres-dev librust-tokio-dev)
		# A JDK, unless one is there already; Node.js and npm from Debian unless some node is on PATH.
		command -v javac >/dev/null || packages+=(default-jdk-headless)
		command -v node >/dev/null && command -v npm >/dev/null || packages+=(nodejs npm)
		;;
	fuzz) packages+=(clang-14 libclang-rt-14-dev) ;;
	format) packages+=(clang-format-14) ;;
	chroot) packages+=(mmdebstrap) ;;
	foreign) packages+=(qemu-user-static binfmt-support mmdebstrap arch-test) ;;
	cross-*)
		# g++-aarch64-linux-gnu for arm64, and so on (gcc comes with it).
		gnu=$(dpkg-architecture -a "${group#cross-}" -qDEB_HOST_GNU_TYPE 2>/dev/null) || {
			log "unknown architecture '${group#cross-}' (group $group)"
			exit 2
		}
		packages+=("g++-$gnu")
		;;
	deb) packages+=(debhelper dpkg-dev fakeroot postgresql-server-dev-all) ;;
	debsrc) packages+=(lintian autopkgtest mmdebstrap) ;;
	image) packages+=(umoci skopeo) ;;
	clients)
		packages+=(python3-setuptools python3-wheel)
		command -v node >/dev/null && command -v npm >/dev/null || packages+=(nodejs npm)
		;;
	pgxn) packages+=(pgxnclient) ;;
	pooler) packages+=(pgbouncer) ;;
	partman) packages+=("postgresql-$(pg_major)-partman") ;;
	timescaledb) packages+=("postgresql-$(pg_major)-timescaledb") ;;
	orm-python)
		# Each one the release packages (apt asked only about those not installed).
		for p in python3-sqlalchemy python3-psycopg2 python3-psycopg python3-asyncpg python3-django python3-venv python3-setuptools python3-wheel python3-pip python3-alembic; do
			# grep reads all of apt-cache's output (-q would stop early, and pipefail then fails the test).
			if is_installed "$p" || apt-cache policy "$p" 2>/dev/null | grep '^ *Candidate: [^(]' >/dev/null; then packages+=("$p"); fi
		done
		;;
	orm-ruby) packages+=(ruby-activerecord ruby-pg) ;;
	mypy) packages+=(mypy) ;;
	*)
		log "unknown group '$group' (base, build, server, citus, pg_tle, drivers, fuzz, chroot, foreign, cross-<arch>, deb, debsrc, image, clients, pgxn, partman, timescaledb, orm-python, orm-ruby, mypy, pooler)"
		exit 2
		;;
	esac
done

missing=()
for p in "${packages[@]}"; do
	is_installed "$p" || missing+=("$p")
done
[ ${#missing[@]} -gt 0 ] || exit 0

if [ "$(id -u)" -ne 0 ]; then
	log "missing packages: ${missing[*]}; run as root, or: sudo apt-get install ${missing[*]}"
	exit 1
fi
# IDTYPES_INSTALL_ASK=1 (`make demo`): install only after a yes on the terminal; without one,
# stop and name the command.
if [ "${IDTYPES_INSTALL_ASK:-0}" = 1 ]; then
	if [ -t 0 ] && [ -t 2 ]; then
		printf 'install-deps.sh: these Debian packages are missing: %s
Install them with apt-get now? [y/N] ' "${missing[*]}" >&2
		read -r answer || answer=
		case $answer in
		[yY] | [yY][eE][sS]) ;;
		*)
			log "nothing installed; to install them yourself: apt-get install ${missing[*]}"
			exit 1
			;;
		esac
	else
		log "missing packages: ${missing[*]}; install them first: apt-get install ${missing[*]}"
		exit 1
	fi
fi
# One install at a time (tests running at once each install their group): apt-get update does
# not wait for another apt's lock. What another run installed meanwhile is not asked for again.
exec 9>/var/lib/apt/idtypes-install-deps.lock
flock -w 1800 9
still=()
for p in "${missing[@]}"; do
	is_installed "$p" || still+=("$p")
done
missing=("${still[@]}")
[ ${#missing[@]} -gt 0 ] || exit 0
apt_update

# A server major that only experimental carries: name each of its packages, and the libpq they
# need, with /experimental (apt's -t experimental cannot resolve it on a fresh sid); the rest of
# the system stays on its release.
if [ -n "${major:-}" ] && only_experimental "postgresql-$major"; then
	log "PostgreSQL $major is in experimental only: installing it from there"
	install=()
	for p in "${missing[@]}"; do
		case $p in
		postgresql-$major | postgresql-server-dev-$major) experimental+=("$p/experimental") ;;
		*) install+=("$p") ;;
		esac
	done
	for p in "postgresql-client-$major" libpq5 libpq-dev; do
		experimental+=("$p/experimental")
	done
	missing=("${install[@]}" "${experimental[@]}")
	# The newest postgresql-common of the release first: experimental's server needs it.
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=600 \
		--no-install-recommends postgresql-common >&2
fi
log "installing ${missing[*]}"
# A configuration file that is there already (scripts/chroot.sh copies the host's apt.conf.d, and
# appstream, which lintian needs on Debian 13, ships one of those) stays as it is: no prompt.
DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=600 \
	-o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
	--no-install-recommends "${missing[@]}" >&2
