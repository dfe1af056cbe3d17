#!/usr/bin/env bash
# Installs a pinned n8n, and the Node 24 it needs, into a cache folder outside the
# clone (a fresh clone reuses it). Prints the folder. Safe to run repeatedly: a
# finished install is reused, a half-finished one is redone. Concurrent runs wait
# for each other (flock).
#   N8N_VERSION     n8n release to install (default 2.41.1; the suite also runs 1.123.81)
#   N8N_E2E_CACHE   cache root (default ~/.cache/n8n-nodes-fillout-forms)
set -euo pipefail

# The default is DEFAULT_N8N_VERSION of paths.ts (2.41.3 lacks packages here: test/e2e/README.md).
N8N_VERSION=${N8N_VERSION:-2.41.1}
NODE24_VERSION=24.21.0
# linkedom >0.18.12 needs cssomnom, which the registry here does not have.
LINKEDOM_VERSION=0.18.12
# n8n 1.x's n8n-nodes-base takes xlsx as a tarball from cdn.sheetjs.com, which is not
# reachable here: use the registry's last xlsx instead (n8n 2.x has no xlsx; npm ignores
# an override of a package that is not in the tree).
XLSX_VERSION=0.18.5
CACHE_ROOT=${N8N_E2E_CACHE:-$HOME/.cache/n8n-nodes-fillout-forms}
DIR="$CACHE_ROOT/n8n-$N8N_VERSION"
STAMP="$DIR/.installed-n8n-$N8N_VERSION-node-$NODE24_VERSION"

if [ -f "$STAMP" ]; then
	echo "$DIR"
	exit 0
fi

log() { echo "[install-n8n] $*" >&2; }

mkdir -p "$CACHE_ROOT"
if command -v flock >/dev/null 2>&1; then
	exec 9>"$CACHE_ROOT/.install-n8n-$N8N_VERSION.lock"
	flock 9
	# Another run may have finished the install while this one waited.
	if [ -f "$STAMP" ]; then
		echo "$DIR"
		exit 0
	fi
fi

# Under `npm run`, npm exports the project's settings as npm_config_* variables:
# ignore-scripts (from the repo's .npmrc) would silently skip the rebuilds below,
# and local-prefix would point npm back at the clone. Keep only the settings that
# say how to reach the registry.
while IFS= read -r name; do
	case "$name" in
		npm_config_registry | npm_config_cafile | npm_config_ca | npm_config_cert | npm_config_key | \
			npm_config_strict_ssl | npm_config_proxy | npm_config_https_proxy | npm_config_noproxy | \
			npm_config_userconfig | npm_config_globalconfig | npm_config_cache | npm_config_fetch_*) ;;
		*) unset "$name" ;;
	esac
done < <(env | sed -n 's/^\(npm_config_[A-Za-z0-9_]*\)=.*/\1/p')

rm -rf "$DIR"
mkdir -p "$DIR"
cd "$DIR"
cat > package.json <<JSON
{
  "private": true,
  "dependencies": { "n8n": "$N8N_VERSION", "node": "$NODE24_VERSION" },
  "overrides": { "linkedom": "$LINKEDOM_VERSION", "xlsx": "$XLSX_VERSION" }
}
JSON

start=$(date +%s)
log "installing n8n@$N8N_VERSION into $DIR (about 4 minutes and 3 GB; scripts off: native builds would download)"
npm install --ignore-scripts --no-audit --no-fund --loglevel=error >&2
log "restoring the Node 24 binary"
npm rebuild node --ignore-scripts=false --loglevel=error >&2
export PATH="$DIR/node_modules/.bin:$PATH"
log "node for n8n: $(node -v)"
case "$(node -v)" in
	v24.*) ;;
	*)
		log "expected Node 24 from the node@$NODE24_VERSION package"
		exit 1
		;;
esac
log "building sqlite3 and isolated-vm against Node 24's headers (about 4.5 minutes on 2 cores)"
headers=$(ls -d "$DIR"/node_modules/node/node_modules/node-*/include/node | head -n 1)
npm_config_nodedir="${headers%/include/node}" \
	npm rebuild sqlite3 isolated-vm --ignore-scripts=false --loglevel=error >&2
node -e 'require("sqlite3"); require("isolated-vm")' >&2
touch "$STAMP"
log "done in $(($(date +%s) - start)) s"
echo "$DIR"
