#!/bin/sh
# As the official redis image: options alone are redis-server's, and protected mode is off (the
# official image builds Redis so), since other containers on the network, not loopback, are its clients.
set -eu
case "${1:-}" in -*) set -- redis-server "$@" ;; esac
[ "${1:-}" = redis-server ] || exec "$@"
exec setpriv --reuid=redis --regid=redis --init-groups "$@" --protected-mode no
