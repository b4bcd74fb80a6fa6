#!/usr/bin/env bash
# copy-checkout.sh <dest>: copy this checkout as it is now (tracked and untracked files, not the
# ignored ones: build products of another compiler or another build never leak in) to <dest>,
# which is emptied first, with a repository of its own whose HEAD is this checkout's (make dist
# archives HEAD). Works from a worktree or a detached HEAD too. Used by scripts/chroot.sh (the
# copy inside a chroot), scripts/sysroot.sh and test/scripts/demo.sh (make demo in a copy).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 <dest>" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
dest=$1
rm -rf "$dest"
mkdir -p "$dest"
(cd "$top" && git ls-files -co --exclude-standard -z | tar -c --null --ignore-failed-read -T - -f -) |
	tar -x -C "$dest" -f -
git init -q "$dest"
git -C "$top" push -q "$dest" HEAD:refs/heads/idtypes-head
git -C "$dest" symbolic-ref HEAD refs/heads/idtypes-head
git -C "$dest" read-tree HEAD
