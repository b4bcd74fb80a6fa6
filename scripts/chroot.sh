#!/usr/bin/env bash
# chroot.sh: run a command in a clean Debian chroot of the release that packages a PostgreSQL major.
#
#   scripts/chroot.sh [--arch <arch>] <major> [command [args...]]   (default command: bash)
#   scripts/chroot.sh --release <major>                              print the release's name only
#   scripts/chroot.sh --mirror                                       print the host's Debian archive
#   scripts/chroot.sh --binfmt <arch>                                only enable qemu-user for <arch>
#   scripts/chroot.sh --native <arch>                                exit 0 if this machine runs <arch>
#                                                                    without an emulator
#
# (scripts/sysroot.sh and test/run_matrix.py ask the last four: the release, the archive and the
# emulator are this script's concern.)
# --arch: a chroot of another Debian architecture (i386, arm64, armhf, s390x, ...) than the host's.
# One the host cannot run natively (all but i386 on amd64, and i386 too where the kernel has its
# 32-bit support off: "32-bit emulation disabled", ia32_emulation=off, which arch-test -n tells)
# runs under qemu-user: qemu-user-static, binfmt-support and arch-test are installed
# (scripts/install-deps.sh foreign) and the architecture's binfmt handler enabled, with
# binfmt_misc mounted if it is not.
#
# 15: bookworm; 17: trixie; 18 and 19: sid (19 from experimental until it reaches sid). No Debian
# release packages 16. Each major has a chroot of its own (two majors of one release can be tested
# at the same time); pg_upgrade 18 -> 19 runs in 19's, which can install 18 beside it.
#
# The chroot is made once by mmdebstrap --variant=minbase (under qemu-user: --variant=apt, the
# fewest packages configured under emulation), dpkg set to unsafe I/O (no fsync), into
# ${IDTYPES_CHROOT_CACHE:-/var/cache/idtypes-chroot}/<release>-<major>, and made again when it is missing
# or broken (no completion mark, or /bin/true does not run). It reaches what the host reaches: the
# host's Debian archive (read from the host's apt sources), apt and npm configuration, DNS files and
# CA certificates are copied in on every run. Each run then installs, through
# scripts/install-deps.sh (the script a user runs), what building and testing against that major
# needs, copies this checkout's files (tracked and untracked, not ignored; with a repository whose
# HEAD is this checkout's) to /build/idtypes inside, and runs the command there as root, with
# PG_CONFIG set to the major's pg_config. /proc, /dev, /dev/pts, /dev/shm and /sys (read-only) are
# mounted for the run and unmounted on every exit path; the vendor directory (Citus sources,
# $IDTYPES_VENDOR_DIR) is bound read-only at /vendor.
# IDTYPES_CHROOT_DEPS: the groups of scripts/install-deps.sh installed inside (default: base).
# IDTYPES_DEB_DIR: a directory of packages built outside, bound read-only at /debs (and named so
# inside), for test/deb/deb_install.sh.
# IDTYPES_CHROOT_BARE=1: no checkout copied in, no package installed, no vendor directory: the
# command runs in /root of the release as mmdebstrap left it (where a user starts from).
# Environment passed in: CI, WERROR, PG_VERSIONS and every IDTYPES_* variable.
set -euo pipefail

usage() {
	echo "usage: $0 [--release] [--arch <arch>] <15|17|18|19> [command...] | --mirror | --binfmt|--native <arch>" >&2
	exit 2
}

print_release=
arch=
only=
while [ $# -gt 0 ]; do
	case $1 in
	--release) print_release=1 ;;
	--mirror) only=mirror ;;
	--binfmt | --native)
		[ $# -ge 2 ] || usage
		only=${1#--} arch=$2
		shift
		;;
	--arch)
		[ $# -ge 2 ] || usage
		arch=$2
		shift
		;;
	*) break ;;
	esac
	shift
done
# The Debian archive the host uses, from its own apt sources (never named in this repository).
host_mirror() {
	{
		sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null || true
		sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]\+\)[[:space:]].*/\2/p' \
			/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true
	} | tr ' ' '\n' | grep -E '/debian/?$' | head -n 1
}

# native <arch>: this machine runs <arch>'s programs without an emulator: its own, and i386 on
# amd64 where the kernel runs 32-bit programs (arch-test -n runs one).
native() {
	local host_arch
	host_arch=$(dpkg --print-architecture)
	[ "$1" = "$host_arch" ] && return 0
	[ "$host_arch" = amd64 ] && [ "$1" = i386 ] || return 1
	bash "$(dirname "$0")/install-deps.sh" foreign >&2
	arch-test -n i386 >/dev/null 2>&1
}

# register_qemu <name> <magic> <mask> <interpreter>: a handler that Debian's qemu-user-static
# ships no binfmt file for (i386 on amd64, which Debian expects the CPU to run), written to
# binfmt_misc directly: the ELF header of the architecture's executables and shared objects.
register_qemu() {
	printf ':qemu-%s:M::%s:%s:%s:F\n' "$1" "$2" "$3" "$4" >/proc/sys/fs/binfmt_misc/register
}

# qemu_i386: the emulator of i386 programs, printed: trixie's qemu-user (QEMU 10), not bookworm's
# qemu-user-static (7.2), whose i386 signal frames do not keep the x87 state: a signal that lands
# in floating-point work (PostgreSQL's procsignals and latches) leaves it NaN or garbage, and
# plain SQL such as interval '20 days' * i / 20000 fails with "interval out of range" (91 of 400
# statements under a stream of SIGUSR1 with 7.2, none with 10.0). Its static binary, from the
# package in the host's archive (apt with a sources list of its own), kept in
# ${IDTYPES_QEMU_CACHE:-/var/cache/idtypes-qemu}.
qemu_i386() {
	local dir=${IDTYPES_QEMU_CACHE:-/var/cache/idtypes-qemu} mirror work
	if [ ! -x "$dir/qemu-i386" ]; then
		mirror=$(host_mirror)
		[ -n "$mirror" ] || { echo "chroot.sh: no Debian archive found in the host's apt sources" >&2; return 1; }
		work=$dir.tmp
		rm -rf "$work"
		mkdir -p "$work/lists/partial" "$work/archives/partial"
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror trixie main" \
			>"$work/sources.list"
		local opts=(-q -o Dir::Etc::SourceList="$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
			-o Dir::State::Lists="$work/lists" -o Dir::Cache::Archives="$work/archives"
			-o APT::Architectures::=amd64 -o APT::Sandbox::User=root)
		apt-get "${opts[@]}" update >&2
		(cd "$work" && apt-get "${opts[@]}" download qemu-user) >&2
		dpkg-deb -x "$work"/qemu-user_*.deb "$work/x"
		install -D -m 755 "$work/x/usr/bin/qemu-i386" "$dir/qemu-i386"
		rm -rf "$work"
	fi
	echo "$dir/qemu-i386"
}

# enable_binfmt <arch>: an architecture this machine does not run natively: its qemu-user
# handler, registered with the F flag (the interpreter opened at registration, so it runs inside a
# chroot too), with binfmt_misc mounted if it is not.
enable_binfmt() {
	local qemu
	! native "$1" || return 0
	case $1 in
	i386) qemu=i386 ;;
	arm64) qemu=aarch64 ;;
	armhf | armel) qemu=arm ;;
	ppc64el) qemu=ppc64le ;;
	mips64el) qemu=mips64el ;;
	*) qemu=$1 ;;
	esac
	bash "$(dirname "$0")/install-deps.sh" foreign >&2
	# One at a time: the lanes of a test matrix start at once.
	mkdir -p /run/lock
	exec 8>/run/lock/idtypes-binfmt.lock
	flock 8
	if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
		mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
	fi
	if [ "$qemu" = i386 ]; then
		local interpreter
		interpreter=$(qemu_i386)
		# Another interpreter registered (bookworm's, or an older run's): replaced.
		if ! grep -qxF "interpreter $interpreter" /proc/sys/fs/binfmt_misc/qemu-i386 2>/dev/null; then
			[ ! -e /proc/sys/fs/binfmt_misc/qemu-i386 ] || echo -1 >/proc/sys/fs/binfmt_misc/qemu-i386
			# ELF, 32-bit, little-endian, executable or shared object, machine 3 (Intel 80386).
			register_qemu i386 '\x7fELF\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x03\x00' \
				'\xff\xff\xff\xff\xff\xfe\xfe\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff' \
				"$interpreter"
		fi
	elif [ ! -e "/proc/sys/fs/binfmt_misc/qemu-$qemu" ]; then
		update-binfmts --enable "qemu-$qemu" >&2
	fi
	if [ ! -e "/proc/sys/fs/binfmt_misc/qemu-$qemu" ]; then
		echo "chroot.sh: cannot register qemu-$qemu with binfmt_misc" >&2
		return 1
	fi
	exec 8>&-
}

case $only in
mirror)
	mirror=$(host_mirror) || true
	[ -n "$mirror" ] || { echo "chroot.sh: no Debian archive found in the host's apt sources" >&2; exit 1; }
	echo "$mirror"
	exit 0
	;;
binfmt)
	enable_binfmt "$arch"
	exit
	;;
native)
	native "$arch"
	exit
	;;
esac

[ $# -ge 1 ] || usage
major=$1
shift

experimental=
case $major in
15) release=bookworm ;;
17) release=trixie ;;
18) release=sid ;;
19) release=sid experimental=1 ;; # sources with experimental, pinned low as Debian does
16)
	echo "chroot.sh: no Debian release packages PostgreSQL 16" >&2
	exit 2
	;;
*) usage ;;
esac
if [ -n "$print_release" ]; then
	echo "$release"
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "chroot.sh: needs root (mmdebstrap, mount, chroot)" >&2
	exit 1
fi

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
cache=${IDTYPES_CHROOT_CACHE:-/var/cache/idtypes-chroot}
host_arch=$(dpkg --print-architecture)
[ "$arch" != "$host_arch" ] || arch=
slot=$release-$major${arch:+-$arch}
log() { echo "chroot.sh[$slot]: $*" >&2; }

mkdir -p "$cache"
# Canonical, as /proc/<pid>/root shows it.
cache=$(cd "$cache" && pwd -P)
root=$cache/$slot
mark=$root/.idtypes-chroot
# One run per chroot at a time: runs share its /build and its installed packages.
exec 9>"$cache/$slot.lock"
flock 9

# The processes whose root is the chroot (a server a killed test left running, say).
inside_pids() {
	local p
	for p in /proc/[0-9]*; do
		if [ "$(readlink "$p/root" 2>/dev/null)" = "$root" ]; then
			echo "${p#/proc/}"
		fi
	done
}

mounted=()
unmount_all() {
	local i pids
	# Nothing may outlive the run inside: TERM, a moment, then KILL.
	pids=$(inside_pids)
	if [ -n "$pids" ]; then
		kill -TERM $pids 2>/dev/null || true
		for i in 1 2 3 4 5 6 7 8 9 10; do
			pids=$(inside_pids)
			[ -n "$pids" ] || break
			sleep 0.5
		done
		[ -z "$pids" ] || kill -KILL $pids 2>/dev/null || true
	fi
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
		umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" 2>/dev/null || true
	done
	mounted=()
}
trap unmount_all EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# Anything still mounted below the chroot (a run that was killed hard): unmount it, deepest first.
unmount_leftovers() {
	local m
	while read -r m; do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
	done < <(awk -v r="$root/" 'index($2, r) == 1 { print $2 }' /proc/mounts | sort -r)
	if awk -v r="$root/" 'index($2, r) == 1 { found = 1 } END { exit !found }' /proc/mounts; then
		log "cannot unmount what is mounted below $root"
		exit 1
	fi
}

mirror=$(host_mirror) || true
if [ -z "$mirror" ]; then
	log "no Debian archive found in the host's apt sources"
	exit 1
fi
emulated=
if [ -n "$arch" ] && ! native "$arch"; then
	emulated=1
	enable_binfmt "$arch"
fi

unmount_leftovers
if [ ! -f "$mark" ] || ! chroot "$root" /bin/true 2>/dev/null; then
	start=$SECONDS
	# mmdebstrap: apt outside the chroot, the packages unpacked and configured in a few dpkg runs
	# (debootstrap's second stage runs one per package: about 4 times the minutes on a loaded
	# machine, and under qemu-user many more). --variant=minbase natively (what debootstrap's
	# minbase gave: Essential and Priority: required, and apt); --variant=apt under qemu-user, the
	# fewest packages configured there.
	variant=minbase
	[ -z "$emulated" ] || variant=apt
	log "making the chroot in $root (mmdebstrap --variant=$variant${arch:+ --arch=$arch} $release)"
	bash "$here/install-deps.sh" chroot >&2
	# --one-file-system: never follow into anything mounted below (checked above as well).
	rm -rf --one-file-system "$root"
	# The host's apt configuration too (an archive snapshot's expired Release files, say).
	aptopts=()
	for f in /etc/apt/apt.conf.d/*; do
		[ -f "$f" ] && aptopts+=(--aptopt="$f")
	done
	if ! bash "$here/mmdebstrap.sh" --variant="$variant" ${arch:+--arch="$arch"} "${aptopts[@]}" "$release" "$root" \
		"deb $mirror $release main" >"$cache/$slot.mmdebstrap.log" 2>&1; then
		tail -n 30 "$cache/$slot.mmdebstrap.log" >&2
		log "mmdebstrap failed"
		exit 1
	fi
	# dpkg without fsync: a throwaway chroot needs no crash safety, and the packages the tests
	# install (the server's headers pull clang and LLVM in) are unpacked in minutes less.
	echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/idtypes-unsafe-io"
	{
		echo "Types: deb"
		echo "URIs: $mirror"
		echo "Suites: $release${experimental:+ experimental}"
		echo "Components: main"
		echo "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
	} >"$root/etc/apt/sources.list.d/debian.sources"
	rm -f "$root/etc/apt/sources.list"
	# Services never start inside (package scripts ask policy-rc.d): no cluster on port 5432.
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod 755 "$root/usr/sbin/policy-rc.d"
	# Nor is a main cluster made when a server package is installed: the tests make their own (and
	# under qemu-user, initdb takes a minute).
	mkdir -p "$root/etc/postgresql-common/createcluster.d"
	echo 'create_main_cluster = false' >"$root/etc/postgresql-common/createcluster.d/idtypes-chroot.conf"
	# Nor is the manual pages' index rebuilt after each install (minutes under qemu-user).
	echo 'man-db man-db/auto-update boolean false' | chroot "$root" debconf-set-selections
	date -u +%FT%TZ >"$mark"
	log "made in $((SECONDS - start)) s"
fi

# What the host reaches, the chroot reaches: apt and npm configuration, name resolution, CAs.
cp -f /etc/resolv.conf /etc/hosts "$root/etc/" 2>/dev/null || true
if [ -d /etc/apt/apt.conf.d ]; then
	cp -f /etc/apt/apt.conf.d/* "$root/etc/apt/apt.conf.d/" 2>/dev/null || true
fi
if [ -d /etc/apt/auth.conf.d ]; then
	mkdir -p "$root/etc/apt/auth.conf.d"
	cp -f /etc/apt/auth.conf.d/* "$root/etc/apt/auth.conf.d/" 2>/dev/null || true
fi
if [ -d /usr/local/share/ca-certificates ]; then
	mkdir -p "$root/usr/local/share/ca-certificates"
	cp -rf /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/"
fi
if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
	mkdir -p "$root/etc/ssl/certs"
	cp -f /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"
fi
[ -f /root/.npmrc ] && cp -f /root/.npmrc "$root/root/.npmrc"
for f in /usr/etc/npmrc /etc/npmrc; do
	if [ -f "$f" ]; then
		cp -f "$f" "$root/etc/npmrc"
		mkdir -p "$root/usr/etc" && cp -f "$f" "$root/usr/etc/npmrc"
	fi
done

bind() { # bind <host path> <path inside> [options]
	mkdir -p "$root$2"
	mount --bind "$1" "$root$2"
	mounted+=("$root$2")
	if [ -n "${3:-}" ]; then
		mount -o "remount,bind,$3" "$root$2"
	fi
}
mount -t proc proc "$root/proc"
mounted+=("$root/proc")
bind /dev /dev
bind /dev/pts /dev/pts
bind /dev/shm /dev/shm
# Read-only, as a server sees it: the generators ask sysfs for the kernel's clocksource (the TSC
# clock), and without it a chroot would only ever test and time the system-clock path.
bind /sys /sys ro

vendor=
if [ "${IDTYPES_CHROOT_BARE:-0}" != 1 ] && [ -n "${IDTYPES_VENDOR_DIR:-}" ] && [ -d "$IDTYPES_VENDOR_DIR" ]; then
	vendor=$(cd "$IDTYPES_VENDOR_DIR" && pwd)
fi
if [ -n "$vendor" ]; then
	bind "$vendor" /vendor ro
fi
# IDTYPES_DEB_DIR: packages built outside (test/deb/deb_install.sh installs them), bound read-only
# at /debs.
debs=
if [ -n "${IDTYPES_DEB_DIR:-}" ]; then
	debs=$(cd "$IDTYPES_DEB_DIR" && pwd)
	bind "$debs" /debs ro
fi

# The environment inside: a clean one, with what the tests read passed through.
envs=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8
	DEBIAN_FRONTEND=noninteractive "PG_CONFIG=/usr/lib/postgresql/$major/bin/pg_config")
# IDTYPES_CCACHE=1 with IDTYPES_CCACHE_ROOT (.ci/run): the chroot's compiles through ccache, its
# cache kept on the host in <root>/<slot> (one per release and architecture: its compilers).
if [ "${IDTYPES_CCACHE:-0}" = 1 ] && [ -n "${IDTYPES_CCACHE_ROOT:-}" ] && [ "${IDTYPES_CHROOT_BARE:-0}" != 1 ]; then
	mkdir -p "$IDTYPES_CCACHE_ROOT/$slot"
	chmod 1777 "$IDTYPES_CCACHE_ROOT/$slot"
	bind "$IDTYPES_CCACHE_ROOT/$slot" /var/cache/idtypes-ccache
	envs+=(CCACHE_DIR=/var/cache/idtypes-ccache)
fi
# IDTYPES_CPU_FILE (test/run_matrix.py: the CPU count of the CI lane's cgroup): its directory read-only
# at /run/idtypes-cpu, for test/run_tests.sh's CPU seconds per step.
if [ -n "${IDTYPES_CPU_FILE:-}" ] && [ -r "$IDTYPES_CPU_FILE" ] && [ "${IDTYPES_CHROOT_BARE:-0}" != 1 ]; then
	bind "$(dirname "$IDTYPES_CPU_FILE")" /run/idtypes-cpu ro
	envs+=("IDTYPES_CPU_FILE=/run/idtypes-cpu/$(basename "$IDTYPES_CPU_FILE")")
fi
[ -n "$vendor" ] && envs+=(IDTYPES_VENDOR_DIR=/vendor)
[ -n "$debs" ] && envs+=(IDTYPES_DEB_DIR=/debs)
while IFS='=' read -r name _; do
	case $name in
	CI | WERROR | IDTYPES_* | UBSAN_OPTIONS | ASAN_OPTIONS | CCACHE_*)
		case $name in IDTYPES_VENDOR_DIR | IDTYPES_DEB_DIR | IDTYPES_CPU_FILE | CCACHE_DIR) ;; *) envs+=("$name=${!name}") ;; esac
		;;
	esac
done < <(env)
inside() { chroot "$root" /usr/bin/env -i "${envs[@]}" "$@"; }

workdir=/build/idtypes
if [ "${IDTYPES_CHROOT_BARE:-0}" = 1 ]; then
	workdir=/root
else
	# This checkout, as it is now, copied in fresh (scripts/copy-checkout.sh).
	bash "$here/copy-checkout.sh" "$root$workdir"

	# What a user of this release installs to build and test against this major (idempotent).
	start=$SECONDS
	# IDTYPES_CHROOT_DEPS: other groups of scripts/install-deps.sh instead (server: what testing a
	# package built elsewhere needs, as test/deb/deb_install.sh does with IDTYPES_DEB_DIR).
	if ! inside bash -c 'cd /build/idtypes && IDTYPES_PG_MAJOR=$0 bash scripts/install-deps.sh $1' "$major" \
		"${IDTYPES_CHROOT_DEPS:-base}" >&2; then
		log "installing the packages for PostgreSQL $major failed"
		exit 1
	fi
	[ $((SECONDS - start)) -lt 5 ] || log "packages for PostgreSQL $major ready in $((SECONDS - start)) s"
fi

[ $# -gt 0 ] || set -- bash
status=0
if [ -t 0 ]; then
	inside bash -c 'cd "$0" && exec "$@"' "$workdir" "$@" || status=$?
else
	# In the background, so that a TERM to this script ends the run at once (bash waits for a
	# foreground child before it runs a trap, but not in `wait`); the EXIT trap then stops what
	# runs inside.
	inside bash -c 'cd "$0" && exec "$@"' "$workdir" "$@" </dev/null &
	wait $! || status=$?
fi
exit "$status"
