#!/usr/bin/env bash
# readme_install.sh: the README's Install section as a user runs it, on a fresh Debian of the
# release that packages a major, with nothing but a clone of this repository (as root).
#
#   test/readme_install.sh <15|17> [command...]     (default command: make test)
#
# A bare chroot of the release (scripts/chroot.sh with IDTYPES_CHROOT_BARE=1, made again for each
# run; IDTYPES_CHROOT_CACHE names where, default /var/tmp/idtypes-readme), into which HEAD of this
# checkout is cloned as the repository the README's `git clone` reads. Inside, as root with
# USER=root: the ```sh blocks of the README's Install section as they stand, from /root where
# that clone is ./idtypes (sudo and git are installed, apt answers yes; after the apt line the
# cluster is started, as the init system does on a real machine), then the command in the clone.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 <15|17> [command...]" >&2; exit 2; }
major=$1
shift
[ $# -gt 0 ] || set -- make test
top=$(cd "$(dirname "$0")/.." && pwd)
export IDTYPES_CHROOT_CACHE=${IDTYPES_CHROOT_CACHE:-/var/tmp/idtypes-readme} IDTYPES_CHROOT_BARE=1
root=$IDTYPES_CHROOT_CACHE/$(bash "$top/scripts/chroot.sh" --release "$major")-$major

rm -f "$root/.idtypes-chroot" # made again: fresh
bash "$top/scripts/chroot.sh" "$major" true
rm -f "$root/usr/sbin/policy-rc.d"
echo 'APT::Get::Assume-Yes "true";' >"$root/etc/apt/apt.conf.d/90yes"
# HEAD of this checkout (a branch or not) as the clone's default branch.
git clone -q --bare "$top" "$root/root/src.git"
git -C "$root/root/src.git" fetch -q "$top" "+HEAD:refs/heads/readme"
git -C "$root/root/src.git" symbolic-ref HEAD refs/heads/readme
{
	# The README starts in a copy of the source tree (`cd idtypes`): the clone is that copy.
	echo 'set -ex; export USER=root; apt-get install -y -q sudo git >/dev/null'
	echo 'cd /root && git clone -q /root/src.git idtypes'
	awk '/^## Install$/ { on = 1; next } on && /^## / { exit }
		on && /^```sh$/ { b = 1; next } b && /^```$/ { b = 0; next } b' "$top/README.md" |
		sed -e '/^sudo apt install/a service postgresql start'
	printf '%q ' "$@"
	echo
} >"$root/root/readme.sh"
cat "$root/root/readme.sh"
bash "$top/scripts/chroot.sh" "$major" bash /root/readme.sh
