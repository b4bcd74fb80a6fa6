#!/usr/bin/env bash
# sysroot.sh: run a command on this machine against Debian's PostgreSQL of another CPU architecture:
# what it builds, cross-compiled by the host's compilers; the server's programs, run by qemu-user.
#
#   scripts/sysroot.sh --arch <arch> <major> [command [args...]]   (default command: bash)
#
# Nothing runs under emulation but the programs under test: a chroot of a foreign architecture
# configures every package under qemu-user (its essential packages and apt, then the server and the
# headers, which pull clang and LLVM in) for tens of minutes, and builds with a compiler under
# emulation.
#
# The sysroot is the release's (scripts/chroot.sh --release <major>) postgresql-<major> of that
# architecture with everything it depends on, extracted by mmdebstrap --variant=extract (no
# maintainer script runs, nothing is configured; the packages registered in its dpkg database,
# so that dpkg --root installs a package there: --register), and postgresql-server-dev-<major>
# extracted alone (its headers; its dependencies, clang and LLVM, serve the JIT bitcode, which is
# not built here: IDTYPES_NO_BITCODE=1). It is made once into
# ${IDTYPES_SYSROOT_CACHE:-/var/cache/idtypes-sysroot}/<release>-<major>-<arch>, and made again
# when it is missing, has no completion mark or no registered package; the host's Debian archive
# is scripts/chroot.sh's.
# A sysroot moved to another directory keeps working: the server's pg_config is asked again.
#
# The command runs on the host, as root, in a fresh copy of this checkout (scripts/copy-checkout.sh)
# at <sysroot>/build/idtypes.<random>, removed after it, with
#   PG_CONFIG       <sysroot>/idtypes-bin/pg_config, which answers what the server's own pg_config
#                   answered under qemu-user in this directory: every directory inside the
#                   sysroot (PostgreSQL finds its directories relative to its programs), so that
#                   PGXS builds against the sysroot's headers and `make install` installs there;
#   MAKEFLAGS       CC and CXX: the host's cross compilers (scripts/install-deps.sh cross-<arch>), as
#                   if given on the command line of every make the command runs;
#   IDTYPES_NO_BITCODE=1  no JIT bitcode (the Makefile): the sysroot has no clang;
#   IDTYPES_SYSROOT, IDTYPES_CROSS_ARCH  the sysroot and its architecture, for scripts/deb.sh
#                   (`make deb` cross-builds the package, with the host's `deb` packages);
#   QEMU_LD_PREFIX  the sysroot: qemu-user (binfmt_misc, enabled by scripts/chroot.sh --binfmt) finds
#                   the dynamic loader and the libraries of the foreign programs there. It opens
#                   any absolute path there first, then on the host: the host's /etc/passwd and
#                   /etc/group are linked into the sysroot, where the server looks up its user.
# The host's tests then drive the foreign server: test/run_tests.sh, test/cluster.sh and the
# scripts run here, and every program of PGBIN (initdb, postgres, psql, pg_dump, pgbench) and
# pg_regress is the architecture's own. Runs in one sysroot may go on at once (the suite and the
# package's cross build, say): each has a copy of its own, and only making the sysroot takes it
# alone (locks). Two runs that install into the sysroot (`make test` does) must not overlap.
set -euo pipefail

usage() {
	echo "usage: $0 --arch <arch> <major> [command...]" >&2
	exit 2
}

# --register <root>: mmdebstrap's extract hook (below): the packages just extracted into <root>,
# registered in its dpkg database as installed (their control fields, their files' lists), so that
# dpkg --root=<root> installs a package built for the sysroot as on a system of that architecture,
# its Depends checked (test/deb/deb_install.sh); nothing is configured.
if [ "${1:-}" = --register ]; then
	set -euo pipefail
	root=$2
	for deb in "$root"/var/cache/apt/archives/*.deb; do
		dpkg-deb -f "$deb"
		echo "Status: install ok installed"
		echo
		name=$(dpkg-deb -f "$deb" Package)
		[ "$(dpkg-deb -f "$deb" Multi-Arch)" != same ] || name=$name:$(dpkg-deb -f "$deb" Architecture)
		dpkg-deb --fsys-tarfile "$deb" | tar -t | sed -e 's|^\./|/|' -e 's|/$||' -e 's|^$|/.|' \
			>"$root/var/lib/dpkg/info/$name.list"
	done >"$root/var/lib/dpkg/status"
	exit 0
fi

arch=
while [ $# -gt 0 ]; do
	case $1 in
	--arch)
		[ $# -ge 2 ] || usage
		arch=$2
		shift
		;;
	*) break ;;
	esac
	shift
done
[ -n "$arch" ] && [ $# -ge 1 ] || usage
major=$1
shift

if [ "$(id -u)" -ne 0 ]; then
	echo "sysroot.sh: needs root (packages, binfmt_misc, the server run as postgres)" >&2
	exit 1
fi

here=$(cd "$(dirname "$0")" && pwd)
release=$(bash "$here/chroot.sh" --release "$major")
gnu=$(dpkg-architecture -a "$arch" -qDEB_HOST_GNU_TYPE 2>/dev/null) || {
	echo "sysroot.sh: unknown architecture $arch" >&2
	exit 2
}
cache=${IDTYPES_SYSROOT_CACHE:-/var/cache/idtypes-sysroot}
slot=$release-$major-$arch
log() { echo "sysroot.sh[$slot]: $*" >&2; }

mkdir -p "$cache"
cache=$(cd "$cache" && pwd -P)
root=$cache/$slot
mark=$root/.idtypes-sysroot
bash "$here/install-deps.sh" foreign "cross-$arch" >&2
bash "$here/chroot.sh" --binfmt "$arch"

pg_config_bin=$root/usr/lib/postgresql/$major/bin/pg_config
answers=$root/idtypes-bin/pg_config.out
# ready: made, with the answers of its server's pg_config in this directory, and the host's users.
ready() {
	[ -f "$mark" ] && [ -x "$pg_config_bin" ] && [ -s "$root/var/lib/dpkg/status" ] &&
		grep -qxF "BINDIR = $root/usr/lib/postgresql/$major/bin" "$answers" 2>/dev/null &&
		[ "$(readlink "$root/etc/passwd")" = /etc/passwd ] && [ "$(readlink "$root/etc/group")" = /etc/group ]
}
# Two locks: one that a run holds while it checks the sysroot and makes what is missing (runs
# that start together wait there for the first, not for each other's whole run), and one held
# shared while the sysroot is used, which making it needs alone (no run uses what is replaced).
exec 8>"$cache/$slot.make.lock" 9>"$cache/$slot.lock"
flock 8
ready || flock 9
if [ ! -f "$mark" ] || [ ! -x "$pg_config_bin" ] || [ ! -s "$root/var/lib/dpkg/status" ]; then
	start=$SECONDS
	mirror=$(bash "$here/chroot.sh" --mirror)
	log "making the sysroot in $root (mmdebstrap --variant=extract --arch=$arch $release)"
	rm -rf --one-file-system "$root"
	# The server's headers without their dependencies: apt-get download (the sysroot's own apt
	# configuration, which mmdebstrap hands its hooks) and dpkg-deb -x.
	dev_hook='cd "$1/tmp" && APT_CONFIG=$MMDEBSTRAP_APT_CONFIG apt-get -q download "$0" &&
		dpkg-deb -x "$0"_*.deb "$1" && rm -f "$0"_*.deb'
	# The host's apt configuration too (an archive snapshot's expired Release files, say).
	aptopts=()
	for f in /etc/apt/apt.conf.d/*; do
		[ -f "$f" ] && aptopts+=(--aptopt="$f")
	done
	if ! bash "$here/mmdebstrap.sh" --variant=extract --arch="$arch" --include="postgresql-$major" "${aptopts[@]}" \
		--extract-hook="sh -c '$dev_hook' postgresql-server-dev-$major \"\$1\"" \
		--extract-hook="bash '$here/sysroot.sh' --register \"\$1\"" \
		"$release" "$root" "deb $mirror $release main" >"$cache/$slot.mmdebstrap.log" 2>&1; then
		tail -n 30 "$cache/$slot.mmdebstrap.log" >&2
		log "mmdebstrap failed"
		exit 1
	fi
	# A merged /usr (sid's packages have their files there only): the links from / that base-files
	# makes, which no package extracted here ships.
	for d in bin sbin lib lib64; do
		if [ -d "$root/usr/$d" ] && [ ! -e "$root/$d" ]; then
			ln -s "usr/$d" "$root/$d"
		fi
	done
	date -u +%FT%TZ >"$mark"
	log "made in $((SECONDS - start)) s"
fi
# The server's pg_config, asked under qemu-user (it answers the directories relative to itself,
# inside the sysroot: asked again when the sysroot was made or moved), and a wrapper that gives
# its answers.
if ! grep -qxF "BINDIR = $root/usr/lib/postgresql/$major/bin" "$answers" 2>/dev/null; then
	mkdir -p "$root/idtypes-bin"
	if ! QEMU_LD_PREFIX=$root "$pg_config_bin" >"$answers.new"; then
		log "$pg_config_bin does not run under qemu-user"
		exit 1
	fi
	mv "$answers.new" "$answers"
	cat >"$root/idtypes-bin/pg_config" <<'EOF'
#!/usr/bin/env bash
# pg_config of a sysroot (scripts/sysroot.sh): the answers of the server's own, kept in pg_config.out.
out=$(dirname "$0")/pg_config.out
[ $# -gt 0 ] || exec cat "$out"
for arg; do
	key=${arg#--}
	line=$(grep -m 1 "^${key^^} = " "$out") || {
		echo "pg_config: invalid argument: $arg" >&2
		exit 1
	}
	echo "${line#* = }"
done
EOF
	chmod 755 "$root/idtypes-bin/pg_config"
fi
if ! ready; then
	for f in passwd group; do
		ln -sfn "/etc/$f" "$root/etc/$f"
	done
fi
flock -s 9 # ready: other runs may use it too
exec 8>&-

# This checkout, as it is now, copied in fresh: the host's own build stays apart.
mkdir -p "$root/build"
workdir=$(mktemp -d "$root/build/idtypes.XXXXXX")
trap 'rm -rf "$workdir"' EXIT
bash "$here/copy-checkout.sh" "$workdir"

[ $# -gt 0 ] || set -- bash
cd "$workdir"
unset MAKEFLAGS MFLAGS MAKELEVEL
export PG_CONFIG=$root/idtypes-bin/pg_config QEMU_LD_PREFIX=$root \
	MAKEFLAGS="CC=$gnu-gcc CXX=$gnu-g++" IDTYPES_NO_BITCODE=1 IDTYPES_SYSROOT=$root IDTYPES_CROSS_ARCH=$arch
"$@"
