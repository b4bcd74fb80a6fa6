#!/usr/bin/env bash
# format_check.sh: the C++ sources are laid out as .clang-format says (`make check-format`, with
# clang-format 14: another version lays some lines out otherwise), and the check fails on a copy of
# a source file with one line laid out otherwise.
#
# Needs no server (clang-format-14: scripts/install-deps.sh format); run by test/run_tests.sh.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/report.sh"
command -v clang-format-14 >/dev/null || {
	echo "skipped: no clang-format-14 (scripts/install-deps.sh format)"
	exit 77
}
if out=$(make --no-print-directory -s -C "$top" check-format 2>&1); then
	ok "every C++ source is laid out as .clang-format says"
else
	printf '%s\n' "$out" | head -40
	bad "C++ sources differ from .clang-format's layout (above; make format)"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$top/.clang-format" "$work/" && printf 'int  f ( ){return 1;}\n' >"$work/bad.cpp"
if clang-format-14 --dry-run -Werror "$work/bad.cpp" >/dev/null 2>&1; then
	bad "clang-format-14 accepts a file laid out otherwise"
else
	ok "clang-format-14 rejects a file laid out otherwise"
fi
finish 2
