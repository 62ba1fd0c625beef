#!/usr/bin/env bash
# compose.mariadb.yaml run for real (issue 33), by podman-compose with podman and no image registry:
#
#   1. images: the service's (the Dockerfile on the base scripts/container-lib.sh makes) and stand-ins
#      for the official MariaDB, Redis and HAProxy images, built from Debian's packages on the same
#      Debian root file system (scripts/compose-test/*/Containerfile), named by the compose file's
#      QR_IMAGE, MARIADB_IMAGE, REDIS_IMAGE and HAPROXY_IMAGE;
#   2. `podman-compose up` in the order the compose file's depends_on conditions say (podman-compose
#      1.0 starts services in that order but waits for no condition): MariaDB until its healthcheck
#      passes, then `migrate` until it exits 0, then the two replicas and HAProxy;
#   3. a key made by the CLI in replica qr-a, a code made and scanned SCANS times through HAProxy:
#      every scan redirects, both replicas answered some (HAProxy's log names the server; each
#      replica's scans_recorded_total says how many it wrote) and total_scans is SCANS, each once;
#   4. `podman-compose stop`: both replicas drain and exit 0; then everything is removed (`down -v`).
#
# Prints `ok - ...` / `not ok - ...: why` for each check and ends with `compose: N passed, M failed`;
# exits 1 when a check failed. With COMPOSE_TEST_FAILURES set, each failed check is appended to that
# file (.ci/run's test-results/failures.txt). COMPOSE_TEST_PORT (3991): HAProxy's port on loopback.
# Images are cached as in scripts/container-test.sh. Run as root on Linux x64.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

PORT=${COMPOSE_TEST_PORT:-3991}
URL="http://127.0.0.1:$PORT"
PROJECT=qr-compose-test-$$
SCANS=20
PHONE='Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148'
WORK=$(mktemp -d)
START=$(date +%s)
SUITE=compose
FAILURES=${COMPOSE_TEST_FAILURES:-}
# shellcheck source=scripts/container-lib.sh
source scripts/container-lib.sh

# What compose.mariadb.yaml reads from the environment: these images, a fresh password, the port.
export QR_IMAGE=localhost/qr-service:compose-test
export MARIADB_IMAGE=localhost/qr-compose-mariadb:$RELEASE REDIS_IMAGE=localhost/qr-compose-redis:$RELEASE
export HAPROXY_IMAGE=localhost/qr-compose-haproxy:$RELEASE
QR_DB_PASSWORD=$(od -An -N 16 -tx1 /dev/urandom | tr -d ' \n')
export QR_DB_PASSWORD QR_PORT=$PORT PUBLIC_BASE_URL=$URL
METRICS_PORT=9464
COMPOSE=(podman-compose -p "$PROJECT" -f compose.mariadb.yaml --podman-args "--runtime runc"
  --podman-run-args "${LIMITS[*]}")
# A service's container, as podman-compose names it.
container() { echo "${PROJECT}_$1_1"; }
# podman-compose prints every podman command it runs: kept in a log, shown when a step fails.
compose() { echo "+ podman-compose $*" >> "$WORK/compose.log"; "${COMPOSE[@]}" "$@" >> "$WORK/compose.log" 2>&1; }

# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
  "${COMPOSE[@]}" down -v -t 10 > /dev/null 2>&1
  podman network rm -f "${PROJECT}_default" > /dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT

for tool in podman podman-compose runc debootstrap curl npm tar; do
  command -v "$tool" >/dev/null 2>&1 || { not_ok "tools" "$tool is missing"; finish; }
done
# shellcheck source=scripts/use-node.sh
source scripts/use-node.sh 24 >/dev/null 2>&1 || { not_ok "Node 24" "scripts/use-node.sh 24 failed"; finish; }

log "images"
ensure_base || { not_ok "base image" "could not make $BASE (above)"; finish; }
make_debian || { not_ok "Debian image" "could not make $DEBIAN_IMAGE"; finish; }
check "the service's image builds" "podman build failed (its last lines above)" \
  build_image "$QR_IMAGE" Dockerfile . --build-arg "BASE_IMAGE=$BASE"
for service in mariadb redis haproxy; do
  image=localhost/qr-compose-$service:$RELEASE
  check "the $service stand-in builds from Debian's packages" "podman build failed (above)" \
    build_image "$image" "scripts/compose-test/$service/Containerfile" "scripts/compose-test/$service" \
    --build-arg "DEBIAN_IMAGE=$DEBIAN_IMAGE"
done
[ "$failed" -eq 0 ] || finish

# Up to $2 half-seconds for command $1... to succeed.
wait_for() {
  local tries=$1
  shift
  for _ in $(seq 1 "$tries"); do
    "$@" > /dev/null 2>&1 && return 0
    sleep 0.5
  done
  return 1
}
# Up to 60 s for container $1's healthcheck to pass; none once it has stopped.
wait_healthy() {
  for _ in $(seq 1 120); do
    "${PODMAN[@]}" healthcheck run "$1" > /dev/null 2>&1 && return 0
    [ "$(podman inspect --format '{{.State.Running}}' "$1")" = true ] || return 1
    sleep 0.5
  done
  return 1
}
step_failed() { tail -n 30 "$WORK/compose.log"; not_ok "$1" "$2"; finish; }

log "up: mariadb, redis"
compose up -d mariadb redis || step_failed "mariadb and redis start" "podman-compose up failed"
if wait_healthy "$(container mariadb)"; then
  ok "MariaDB initialises its database and user and passes its healthcheck"
else
  podman logs "$(container mariadb)" 2>&1 | tail -n 20
  step_failed "MariaDB initialises its database and user and passes its healthcheck" "not healthy within 60 s (its log above)"
fi

log "up: migrate"
compose up -d --no-deps migrate || step_failed "migrate starts" "podman-compose up failed"
MIGRATED=$(timeout 120 podman wait "$(container migrate)")
check "migrate runs the migrations and exits 0" "exit code '$MIGRATED': $(podman logs "$(container migrate)" 2>&1 | tail -n 5)" \
  test "$MIGRATED" = 0
[ "$failed" -eq 0 ] || finish

log "up: qr-a, qr-b, proxy"
compose up -d --no-deps qr-a qr-b proxy || step_failed "the replicas and HAProxy start" "podman-compose up failed"
for replica in qr-a qr-b; do
  if wait_healthy "$(container "$replica")"; then
    ok "$replica starts and passes its healthcheck"
  else
    podman logs "$(container "$replica")" 2>&1 | tail -n 20
    not_ok "$replica starts and passes its healthcheck" "not healthy within 60 s (its log above)"; finish
  fi
done
# HAProxy lets a replica in after two passed checks (rise 2, 500 ms apart).
check "HAProxy answers /healthz" "no 200 from $URL/healthz" wait_for 40 curl -sf "$URL/healthz"
[ "$failed" -eq 0 ] || finish
sleep 1.5

# Up to three tries: one run in six saw the CLI's first connection to MariaDB time out (ETIMEDOUT
# after 10 s) on this shared machine while the replicas served; each failed try is printed.
for try in 1 2 3; do
  KEY=$("${PODMAN[@]}" exec "$(container qr-a)" node dist/server/src/cli.js keys create --account compose | tail -n 1)
  [[ $KEY =~ ^[A-Za-z0-9_]{20,}$ ]] && break
  echo "try $try: the CLI printed '$KEY'"
done
# shellcheck disable=SC2016 # $1 is bash -c's argument
check "the CLI in replica qr-a makes a key" "it printed '$KEY'" bash -c '[[ $1 =~ ^[A-Za-z0-9_]{20,}$ ]]' _ "$KEY"
CODE=$(curl -s -X POST "$URL/v1/codes" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
  -d '{"content":"https://example.com/compose","slug":"compose"}')
ID=$(printf '%s' "$CODE" | sed -n 's/.*"id":"\(qr_[^"]*\)".*/\1/p')
check "a code is made through HAProxy" "the API answered: ${CODE:0:300}" test -n "$ID"

log "$SCANS scans through HAProxy"
redirected=0
for scan in $(seq 1 "$SCANS"); do
  answer=$(curl -s -o /dev/null -w '%{http_code} %{redirect_url} %{time_total}' -A "$PHONE" "$URL/compose")
  if [ "${answer% *}" = "302 https://example.com/compose" ]; then
    redirected=$((redirected + 1))
  else
    echo "scan $scan answered '$answer' (status, location, seconds)"
  fi
done
check "every scan redirects (302)" "$redirected of $SCANS did" test "$redirected" = "$SCANS"
if [ "$redirected" != "$SCANS" ]; then
  # What the replicas logged beyond their requests: the cause of a failed scan, for the next reader.
  for replica in qr-a qr-b; do
    echo "$replica's log, other than requests:"
    podman logs "$(container "$replica")" 2>&1 | grep -v '"msg":"request"' | tail -n 15
  done
fi

# HAProxy's log (option httplog) names the server of each request: "qr_replicas/a" or "/b".
PROXY_LOG=$(podman logs "$(container proxy)" 2>&1)
by_a=$(grep -c 'qr_replicas/a .*"GET /compose ' <<< "$PROXY_LOG")
by_b=$(grep -c 'qr_replicas/b .*"GET /compose ' <<< "$PROXY_LOG")
echo "HAProxy sent $by_a scans to qr-a and $by_b to qr-b"
check "HAProxy sent scans to both replicas" "qr-a $by_a, qr-b $by_b" test "$by_a" -gt 0 -a "$by_b" -gt 0

# Each replica's own count of the scans it wrote (its metrics listener, inside its container).
recorded() {
  "${PODMAN[@]}" exec "$(container "$1")" node -e \
    "fetch('http://127.0.0.1:$METRICS_PORT/metrics').then((r) => r.text()).then((t) => console.log(t))" |
    sed -n 's/^scans_recorded_total \([0-9]*\)$/\1/p'
}
total_scans() {
  curl -s "$URL/v1/codes/$ID/scans" -H "Authorization: Bearer $KEY" | sed -n 's/.*"total_scans":\([0-9]*\).*/\1/p'
}
# Scans are written in batches (SCAN_FLUSH_INTERVAL_MS, 0.2 s).
wait_for 20 test "$(total_scans)" = "$SCANS"
rec_a=$(recorded qr-a)
rec_b=$(recorded qr-b)
echo "scans_recorded_total: qr-a ${rec_a:-none}, qr-b ${rec_b:-none}"
check "each replica wrote the scans it answered" "qr-a wrote '${rec_a}' of $by_a, qr-b '${rec_b}' of $by_b" \
  test "${rec_a:-x}" = "$by_a" -a "${rec_b:-x}" = "$by_b"
check "total_scans is $SCANS: each scan counted once" "total_scans is '$(total_scans)'" test "$(total_scans)" = "$SCANS"

log "stop"
stop_start=$(date +%s)
compose stop -t 10 || step_failed "podman-compose stop" "it failed"
STOP_SECONDS=$(($(date +%s) - stop_start))
for replica in qr-a qr-b; do
  code=$(podman inspect --format '{{.State.ExitCode}}' "$(container "$replica")")
  check "$replica drained and exited 0" "exit code '$code', its log ends: $(podman logs "$(container "$replica")" 2>&1 | tail -n 2)" \
    bash -c '[ "$1" = 0 ] && podman logs "$2" 2>&1 | tail -n 3 | grep -q "\"msg\":\"stopped\""' _ "$code" "$(container "$replica")"
done
echo "podman-compose stop took ${STOP_SECONDS} s"
finish
