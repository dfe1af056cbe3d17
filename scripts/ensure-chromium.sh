#!/usr/bin/env bash
# Makes sure the Chromium that the browser tests and `npm run screenshots` drive is
# installed (Debian's package: test tools' own browser downloads do not work here).
# Does nothing when it is there; otherwise installs it with apt-get (needs root or sudo).
# Prints the browser's path.
#   CHROMIUM_PATH   the browser to use (default /usr/bin/chromium)
set -euo pipefail

CHROMIUM=${CHROMIUM_PATH:-/usr/bin/chromium}
if [ -x "$CHROMIUM" ]; then
	echo "$CHROMIUM"
	exit 0
fi
if [ "$CHROMIUM" != /usr/bin/chromium ]; then
	echo "ensure-chromium: CHROMIUM_PATH=$CHROMIUM does not exist" >&2
	exit 1
fi

SUDO=
if [ "$(id -u)" -ne 0 ]; then
	if ! command -v sudo >/dev/null 2>&1; then
		echo "ensure-chromium: Chromium is missing; run as root: apt-get install -y chromium" >&2
		exit 1
	fi
	SUDO=sudo
fi
echo "[ensure-chromium] installing Debian's chromium package" >&2
$SUDO apt-get update >&2
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends chromium >&2
echo "$CHROMIUM"
