#!/usr/bin/env bash
# install-deps.sh: install the build and test packages (server headers, Catch2) if any is missing.
set -euo pipefail

packages=(postgresql-server-dev-15 catch2)

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
DEBIAN_FRONTEND=noninteractive apt-get install -y -o DPkg::Lock::Timeout=600 "${packages[@]}"
