#!/usr/bin/env bash
# Makes sure the database and queue that the queue-mode end-to-end tier runs n8n on are
# installed: Debian's postgresql and redis-server packages (the tier starts its own
# instances on free loopback ports with data in a temp folder; the packages' system
# services are not used). Does nothing when both are there; otherwise installs the
# missing ones with apt-get (needs root or sudo). Prints Postgres's bin folder.
set -euo pipefail

postgres_bin() {
	# The newest installed major version (Debian keeps each under /usr/lib/postgresql/<major>).
	find /usr/lib/postgresql -mindepth 3 -maxdepth 3 -path '*/bin/initdb' 2>/dev/null |
		sort -V | tail -n 1 | xargs -r dirname
}

missing=()
[ -n "$(postgres_bin)" ] || missing+=(postgresql)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)

if [ ${#missing[@]} -gt 0 ]; then
	SUDO=
	if [ "$(id -u)" -ne 0 ]; then
		if ! command -v sudo >/dev/null 2>&1; then
			echo "ensure-queue-services: missing ${missing[*]}; run as root: apt-get install -y ${missing[*]}" >&2
			exit 1
		fi
		SUDO=sudo
	fi
	echo "[ensure-queue-services] installing Debian's ${missing[*]}" >&2
	$SUDO apt-get update >&2
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}" >&2
fi

bin=$(postgres_bin)
if [ -z "$bin" ] || ! command -v redis-server >/dev/null 2>&1; then
	echo "ensure-queue-services: postgresql or redis-server still missing after apt-get" >&2
	exit 1
fi
echo "$bin"
