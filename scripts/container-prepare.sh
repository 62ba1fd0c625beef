#!/usr/bin/env bash
# Makes the images the container and compose tests start from (scripts/container-lib.sh): the Debian
# root file system by debootstrap, the base with Node 24 on it and the plain Debian image, each
# skipped when cached. On a machine with no cache this is most of the container test's time (about
# 5 minutes, debootstrap mostly waiting on the mirror and dpkg), so .ci/run starts it in the
# background while the test suites run; the tests then find the images made (or make them
# themselves, should this have failed). Prints what it did; exits 1 on a failure.
set -uo pipefail
cd "$(dirname "$0")/.."
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
START=$(date +%s)
SUITE=container-prepare
FAILURES=
# shellcheck source=scripts/container-lib.sh
source scripts/container-lib.sh
# shellcheck source=scripts/use-node.sh
source scripts/use-node.sh 24 >/dev/null 2>&1 || { echo "scripts/use-node.sh 24 failed"; exit 1; }
ensure_base || { echo "could not make the base image"; exit 1; }
make_debian || { echo "could not make $DEBIAN_IMAGE"; exit 1; }
echo "images ready in $(($(date +%s) - START)) s"
