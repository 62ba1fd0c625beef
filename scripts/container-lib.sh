# shellcheck shell=bash
# What the container tests share (scripts/container-test.sh, scripts/compose-test.sh): podman with
# the runc runtime and the ulimits these machines need, and images made without an image registry:
# a Debian root file system by debootstrap, the base with Node 24 on it, and the service's image.
# Sourced; the caller sets WORK (a temporary folder it removes), START (its start, date +%s), SUITE
# (the checks' name in the summary) and FAILURES (a file for failed checks, or empty), and runs as
# root on Linux x64.

RELEASE=bookworm
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/qr-service/container
PODMAN=(podman --runtime runc)
LIMITS=(--ulimit nofile=1024:20000 --ulimit nproc=1024:1024)
# Debian without Node, for the stand-ins of the official MariaDB, Redis and HAProxy images.
DEBIAN_IMAGE=localhost/qr-debian:$RELEASE

# Counted checks: `ok - NAME` or `not ok - NAME: WHY`, and at the end `SUITE: N passed, M failed`
# (.ci/run reads it); a failed check is appended to $FAILURES as `failed (SUITE): script > NAME: WHY`.
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - $1"; }
not_ok() {
  failed=$((failed + 1))
  echo "not ok - $1: $2"
  if [ -n "${FAILURES:-}" ]; then echo "failed ($SUITE): scripts/$SUITE-test.sh > $1: $2" >> "$FAILURES"; fi
}
check() { # check NAME WHY-IF-NOT COMMAND...
  local name=$1 why=$2
  shift 2
  if "$@"; then ok "$name"; else not_ok "$name" "$why"; fi
}
log() { printf '\n--- %s (%ss)\n' "$*" "$(($(date +%s) - START))"; }
finish() {
  echo
  echo "$SUITE test took $(($(date +%s) - START)) s"
  echo "$SUITE: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
}

# Debian's mirror as this machine's apt knows it (deb822 or one-line sources), else Debian's own.
debian_mirror() {
  local uri
  uri=$(sed -n 's/^URIs: *\(\S*\/debian\)\/\?$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
  [ -n "$uri" ] || uri=$(sed -n 's/^deb \(\[[^]]*\] \)\?\(\S*\/debian\)\/\? .*/\2/p' /etc/apt/sources.list 2>/dev/null | head -n 1)
  echo "${uri:-http://deb.debian.org/debian}"
}

# The Debian root file system, as a tarball in the cache (made once per release).
rootfs_tar() {
  local tar=$CACHE/debian-$RELEASE-minbase.tar dir
  if [ -s "$tar" ]; then echo "$tar"; return 0; fi
  mkdir -p "$CACHE" || return 1
  dir=$WORK/rootfs
  echo "debootstrap --variant=minbase $RELEASE from $(debian_mirror) (cached in $tar afterwards)" >&2
  debootstrap --variant=minbase "$RELEASE" "$dir" "$(debian_mirror)" > "$WORK/debootstrap.log" 2>&1 ||
    { tail -n 20 "$WORK/debootstrap.log" >&2; return 1; }
  # What Debian's slim images leave out too: documentation, manuals, translations, apt's lists and caches.
  rm -rf "$dir"/usr/share/doc/* "$dir"/usr/share/man/* "$dir"/usr/share/info/* "$dir"/usr/share/locale/* \
    "$dir"/var/lib/apt/lists/* "$dir"/var/cache/apt/* "$dir"/var/cache/debconf/*-old "$dir"/var/log/*
  tar --numeric-owner -C "$dir" -cf "$tar.partial" . && mv "$tar.partial" "$tar" || return 1
  rm -rf "$dir"
  echo "$tar"
}

# The Debian root file system as an image ($DEBIAN_IMAGE), once.
make_debian() {
  local tar
  podman image exists "$DEBIAN_IMAGE" && return 0
  tar=$(rootfs_tar) || return 1
  podman import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["bash"]' "$tar" "$DEBIAN_IMAGE" >/dev/null
}

# The base image $1: the root file system plus this shell's Node and npm in /usr/local, as the
# official Node image has them.
make_base() {
  local base=$1 tar dir node
  tar=$(rootfs_tar) || return 1
  dir=$WORK/base
  mkdir -p "$dir" && tar --numeric-owner -C "$dir" -xf "$tar" || return 1
  node=$(command -v node)
  install -m 755 "$node" "$dir/usr/local/bin/node" || return 1
  npm install --global --prefix "$dir/usr/local" --no-audit --no-fund --prefer-offline --loglevel=error \
    "npm@$(npm --version)" >&2 || return 1
  # This machine's trust: where TLS to the registry passes a proxy with its own CA (NODE_EXTRA_CA_CERTS
  # names it here, else the system's bundle has it), the base trusts it too, or `npm ci` in the build
  # fails with SELF_SIGNED_CERT_IN_CHAIN.
  local trust=() ca=${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}
  if [ -s "$ca" ]; then
    install -D -m 644 "$ca" "$dir/usr/local/share/qr-base/extra-ca.crt" || return 1
    trust=(--change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/qr-base/extra-ca.crt')
  fi
  tar --numeric-owner -C "$dir" -c . | podman import "${trust[@]}" \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["node"]' - "$base" >/dev/null || return 1
  rm -rf "$dir"
}

# The base for this shell's Node and npm (its name in $BASE), made unless podman's store has it.
ensure_base() {
  BASE=localhost/qr-base:$RELEASE-node-$(node --version | tr -d v)-npm-$(npm --version)
  if podman image exists "$BASE"; then echo "$BASE: cached in podman's store"; else make_base "$BASE" && echo "$BASE: made"; fi
}

# `podman build` of a Containerfile ($2) in a context ($3) as image $1, with the host's network (apt,
# npm) and any further arguments; its output in $WORK/build-<image's name>.log.
build_image() {
  local image=$1 file=$2 context=$3 log
  shift 3
  log=$WORK/build-$(basename "${image%%:*}").log
  "${PODMAN[@]}" build --format docker "${LIMITS[@]}" --network host "$@" -t "$image" -f "$file" "$context" > "$log" 2>&1 ||
    { tail -n 40 "$log"; return 1; }
}
