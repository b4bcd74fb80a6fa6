#!/usr/bin/env bash
# install-deps.sh: install the Debian packages a task needs, if any is missing (one apt run).
#
#   scripts/install-deps.sh [group...]      groups: base (default), server-build, citus, drivers, fuzz
#
# base: what building and testing against the packaged PostgreSQL 15 needs; server-build: what
# scripts/pg-build.sh needs to build a server from Debian's source package; citus: what
# scripts/citus-build.sh needs on top of that; drivers: what test/scripts/drivers.sh needs to run
# examples/ (psycopg 3, the PostgreSQL JDBC driver and a JDK, Node.js with npm); fuzz: clang 14 and
# its libFuzzer runtime for `make fuzz`.
set -euo pipefail

packages=()
for group in "${@:-base}"; do
	case $group in
	base) packages+=(postgresql-server-dev-15 postgresql-contrib catch2) ;;
	server-build) packages+=(build-essential bison flex libreadline-dev zlib1g-dev libssl-dev pkg-config) ;;
	citus) packages+=(autoconf liblz4-dev libzstd-dev libkrb5-dev) ;;
	drivers)
		packages+=(python3-psycopg libpostgresql-jdbc-java)
		# A JDK, unless one is there already; Node.js and npm from Debian unless some node is on PATH.
		command -v javac >/dev/null || packages+=(default-jdk-headless)
		command -v node >/dev/null && command -v npm >/dev/null || packages+=(nodejs npm)
		;;
	fuzz) packages+=(clang-14 libclang-rt-14-dev) ;;
	*)
		echo "install-deps.sh: unknown group '$group' (base, server-build, citus, drivers, fuzz)" >&2
		exit 2
		;;
	esac
done

missing=()
for p in "${packages[@]}"; do
	if [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" != installed ]; then
		missing+=("$p")
	fi
done
[ ${#missing[@]} -gt 0 ] || exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps.sh: missing packages: ${missing[*]}; run as root, or: sudo apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "install-deps.sh: installing ${missing[*]}"
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y -o DPkg::Lock::Timeout=600 "${missing[@]}"
