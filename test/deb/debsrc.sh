#!/usr/bin/env bash
# debsrc.sh: the Debian source package is fit for upload to this release: `make debsrc` builds it
# (orig tarball, .dsc, .debian.tar.xz, source .changes) and the binary packages from it, lintian
# reports no error and no warning on any of them (overrides only in debian/, each with its reason),
# and autopkgtest runs debian/tests against the built packages in a throwaway chroot of the release
# (mmdebstrap makes it as a tarball with the tests' own Depends installed, unpacked afresh for each
# run; autopkgtest-virt-chroot) and passes.
#
#   scripts/chroot.sh <major> bash test/deb/debsrc.sh
#
# Meant for the chroot of the release that packages <major> (it runs as root and installs
# scripts/install-deps.sh deb and debsrc). The throwaway chroot comes from the chroot's own apt
# sources; its tarball is kept in /var/cache/idtypes-debsrc/ and made again when older than a day.
set -euo pipefail
trap '' PIPE
cd "$(dirname "$0")/../.."
. test/lib/report.sh
if [ "$(id -u)" -ne 0 ]; then
	echo "debsrc.sh: needs root (it installs packages and makes a chroot): run it in a chroot" >&2
	exit 2
fi
release=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
major=$(pg_config --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
work=$(mktemp -d)
chmod 755 "$work"
trap 'rm -rf --one-file-system "$work"' EXIT
start=$SECONDS
echo "$(. /etc/os-release && echo "$PRETTY_NAME"), PostgreSQL $major"
bash scripts/install-deps.sh deb debsrc
echo "lintian $(dpkg-query -W -f='${Version}' lintian), autopkgtest $(dpkg-query -W -f='${Version}' autopkgtest)"

# ---- build ---------------------------------------------------------------------------------------
if make -s debsrc DEB_DIR="$work/out" >"$work/build.log" 2>&1; then
	ok "make debsrc: $(cd "$work/out" && ls | tr '\n' ' ') ($((SECONDS - start)) s)"
else
	cat "$work/build.log"
	bad "make debsrc (above)"
	finish 1
fi
changes_src=$(ls "$work"/out/idtypes_*_source.changes)
changes_bin=$(ls "$work"/out/idtypes_*_"$(dpkg --print-architecture)".changes)

# ---- lintian -------------------------------------------------------------------------------------
# Every tag of every level, so that the log shows what was overridden; errors and warnings fail
# (--fail-on: the exit status of the same run, where a second run for the status read every
# package again).
lint_status=0
lintian --fail-on error,warning --display-level '>=pedantic' --show-overrides --tag-display-limit 0 \
	"$changes_src" "$changes_bin" >"$work/lintian.log" 2>&1 || lint_status=$?
sed 's/^/  /' "$work/lintian.log"
n_e=$(grep -c '^E: ' "$work/lintian.log") || true
n_w=$(grep -c '^W: ' "$work/lintian.log") || true
if [ "$lint_status" -eq 0 ] && [ "$n_e$n_w" = 00 ]; then
	ok "lintian: 0 errors, 0 warnings on the source and binary packages ($(grep -c '^[IPO]: ' "$work/lintian.log") info, pedantic or overridden lines above)"
else
	bad "lintian: $n_e errors, $n_w warnings (above)"
fi

# ---- autopkgtest in a throwaway chroot -------------------------------------------------------------
cache=/var/cache/idtypes-debsrc
tarball=$cache/$release.tar
mkdir -p "$cache"
# The tests' own Depends (debian/tests/control, but @ and @builddeps@: the packages under test)
# are in the tarball already: autopkgtest finds them installed and installs only the packages under
# test, with whatever they depend on that is not there (unpacking the server's headers with clang
# and LLVM would otherwise be most of autopkgtest's time).
test_deps=$(sed -n '/^Depends:/,/^[A-Z]/{/^Depends:/{s/^Depends://;p;d};/^[A-Z]/d;p}' debian/tests/control |
	tr ',' '\n' | sed 's/^[[:space:]]*//; s/[[:space:]]*$//' | grep -v '^@' | grep . | sort -u | paste -sd ,)
if [ ! -f "$tarball" ] || [ -n "$(find "$tarball" -mmin +1440)" ] ||
	[ "$(cat "$tarball.deps" 2>/dev/null)" != "$test_deps" ]; then
	t=$SECONDS
	# The chroot's own Debian archive, read from its apt sources as scripts/chroot.sh reads the host's.
	mirror=$(bash scripts/chroot.sh --mirror 2>/dev/null) || true
	# (mmdebstrap picks the format by the name's ending: .tar)
	rm -rf "$cache/new.tar"
	if ! bash scripts/mmdebstrap.sh --variant=apt ${test_deps:+--include="$test_deps"} \
		"$release" "$cache/new.tar" "${mirror:-http://deb.debian.org/debian}" \
		>"$work/mmdebstrap.log" 2>&1; then
		tail -n 30 "$work/mmdebstrap.log"
		bad "mmdebstrap of a $release chroot"
		finish 2
	fi
	mv "$cache/new.tar" "$tarball"
	echo "$test_deps" >"$tarball.deps"
	echo "mmdebstrap: $tarball with $test_deps ($(du -m "$tarball" | cut -f1) MB, $((SECONDS - t)) s)"
fi
# The throwaway chroot: the tarball unpacked into a scratch directory, entered by
# autopkgtest-virt-chroot (autopkgtest-virt-unshare would need a user namespace, which a process in
# a chroot cannot make), with /proc and /dev/pts mounted for the test's server; removed at the end.
testbed=$work/testbed
mkdir "$testbed"
tar -x -C "$testbed" -f "$tarball"
cp -L /etc/resolv.conf "$testbed/etc/resolv.conf" 2>/dev/null || true
# Leaving it: whatever still runs in it is stopped (a test's server, where autopkgtest ran out of
# time), /dev and /proc unmounted (detached if still busy), and only then the directory removed,
# never across a mount: $testbed/dev is the machine's own /dev, and a removal that went through it
# would delete the host's device nodes (seen once: every later test failed, "/dev/fd/63: No such
# file or directory").
leave_testbed() {
	local p pids=
	for p in /proc/[0-9]*; do
		case $(readlink "$p/root" 2>/dev/null) in "$testbed" | "$testbed"/*) pids+=" ${p#/proc/}" ;; esac
	done
	# shellcheck disable=SC2086
	[ -z "$pids" ] || { kill -KILL $pids 2>/dev/null || true; sleep 1; }
	for p in "$testbed/dev" "$testbed/proc"; do
		if mountpoint -q "$p"; then
			umount "$p" 2>/dev/null || umount -l "$p" 2>/dev/null || true
		fi
	done
	if mountpoint -q "$testbed/dev" || mountpoint -q "$testbed/proc"; then
		echo "debsrc.sh: $testbed still has mounts: left in place" >&2
		return
	fi
	rm -rf --one-file-system "$work"
}
trap leave_testbed EXIT
mount -t proc proc "$testbed/proc"
mount --bind /dev "$testbed/dev"
t=$SECONDS
status=0
timeout 900 autopkgtest -U --no-built-binaries -B "$work"/out/*.deb "$work"/out/idtypes_*.dsc -- chroot "$testbed" \
	>"$work/autopkgtest.log" 2>&1 || status=$?
# Its summary: one line per test of debian/tests/control, "<name> PASS|FAIL|SKIP ...".
summary=$(sed -n '/@@@@@@@@@@@@@@@@@@@@ summary/,$p' "$work/autopkgtest.log" |
	grep -E '^[a-z0-9][a-z0-9.+-]* +(PASS|FAIL|SKIP|FLAKY|NEUTRAL)') || true
sed 's/^/  /' <<<"$summary"
if [ "$status" -eq 0 ] && grep -qE '^installcheck +PASS' <<<"$summary" && ! grep -qE ' (FAIL|SKIP)' <<<"$summary"; then
	ok "autopkgtest: $(tr -s ' ' <<<"$summary" | tr '\n' ';') in a throwaway $release chroot ($((SECONDS - t)) s)"
else
	tail -n 60 "$work/autopkgtest.log"
	# The suite's failed tests by name, so that the summary at the end of a run says which.
	# pg_regress up to 15 prints "test <name> ... FAILED", from 16 "not ok <n> - <name>".
	failed=$(sed -nE 's/^(test +| +)([a-z0-9_]+) +\.\.\. FAILED.*/\2/p; s/^not ok [0-9]+ +[-+] +([a-z0-9_]+) .*/\1/p' \
		"$work/autopkgtest.log" | sort -u | paste -sd ' ') || true
	bad "autopkgtest in a throwaway $release chroot (exit status $status; above)${failed:+; failed: $failed}"
fi
echo "debsrc.sh: $((SECONDS - start)) s"
finish 3
