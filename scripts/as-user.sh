#!/usr/bin/env bash
# as-user.sh: run a command as an ordinary user (not root) in a copy of this checkout in that
# user's home, as someone without sudo runs `make test`: the extension staged, the servers run as
# that user, nothing installed. For test/run_matrix.py, inside a release's chroot.
#
#   scripts/as-user.sh <command...>
#
# Run as root. The user, idtypes-user, is made if missing; the copy is made afresh each time.
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 <command...>" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "as-user.sh: run this as root" >&2; exit 2; }
user=idtypes-user
top=$(cd "$(dirname "$0")/.." && pwd)
id "$user" >/dev/null 2>&1 || useradd --create-home --shell /bin/bash "$user"
home=$(getent passwd "$user" | cut -d: -f6)
rm -rf "$home/idtypes"
cp -a "$top" "$home/idtypes"
chown -R "$user:" "$home/idtypes"
cd "$home/idtypes"
exec runuser -u "$user" -- env HOME="$home" USER="$user" LOGNAME="$user" "$@"
