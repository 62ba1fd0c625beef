#!/bin/sh
# The official mariadb image's entrypoint, the part compose.mariadb.yaml relies on: options alone
# are mariadbd's; an empty data directory is initialised once with MARIADB_DATABASE, MARIADB_USER /
# MARIADB_PASSWORD (all privileges on that database, from any host) and a root password from
# MARIADB_ROOT_PASSWORD, MARIADB_RANDOM_ROOT_PASSWORD (printed) or MARIADB_ALLOW_EMPTY_ROOT_PASSWORD;
# root from MARIADB_ROOT_HOST (default %) too. The server then runs as mysql, as PID 1.
set -eu
case "${1:-}" in -*) set -- mariadbd "$@" ;; esac
[ "${1:-}" = mariadbd ] || exec "$@"

DATADIR=/var/lib/mysql
mkdir -p /run/mysqld
chown mysql:mysql /run/mysqld "$DATADIR"

# A value inside single quotes in SQL.
sql_string() { printf "'%s'" "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e "s/'/\\\\'/g")"; }

if [ ! -d "$DATADIR/mysql" ]; then
  if [ -n "${MARIADB_RANDOM_ROOT_PASSWORD:-}" ]; then
    MARIADB_ROOT_PASSWORD=$(od -An -N 24 -tx1 /dev/urandom | tr -d ' \n')
    echo "GENERATED ROOT PASSWORD: $MARIADB_ROOT_PASSWORD"
  elif [ -z "${MARIADB_ROOT_PASSWORD:-}" ] && [ -z "${MARIADB_ALLOW_EMPTY_ROOT_PASSWORD:-}" ]; then
    echo "error: set one of MARIADB_ROOT_PASSWORD, MARIADB_ALLOW_EMPTY_ROOT_PASSWORD, MARIADB_RANDOM_ROOT_PASSWORD" >&2
    exit 1
  fi
  echo "initialising $DATADIR"
  mariadb-install-db --user=mysql --datadir="$DATADIR" --skip-test-db > /dev/null
  # A server on a socket of its own, without networking, so that nothing connects before the users exist.
  mariadbd --user=mysql --skip-networking --socket=/run/mysqld/init.sock &
  init_pid=$!
  for _ in $(seq 1 60); do mariadb-admin --socket=/run/mysqld/init.sock ping >/dev/null 2>&1 && break; sleep 0.5; done
  root_pw=$(sql_string "${MARIADB_ROOT_PASSWORD:-}")
  root_host=$(sql_string "${MARIADB_ROOT_HOST:-%}")
  {
    # root@localhost keeps the socket login (healthcheck.sh uses it) beside the password.
    echo "ALTER USER root@localhost IDENTIFIED VIA unix_socket OR mysql_native_password USING PASSWORD($root_pw);"
    [ "${MARIADB_ROOT_HOST:-%}" = localhost ] ||
      echo "CREATE USER root@$root_host IDENTIFIED BY $root_pw; GRANT ALL ON *.* TO root@$root_host WITH GRANT OPTION;"
    if [ -n "${MARIADB_DATABASE:-}" ]; then
      echo "CREATE DATABASE IF NOT EXISTS \`$MARIADB_DATABASE\`;"
    fi
    if [ -n "${MARIADB_USER:-}" ]; then
      echo "CREATE USER $(sql_string "$MARIADB_USER")@'%' IDENTIFIED BY $(sql_string "${MARIADB_PASSWORD:-}");"
      [ -z "${MARIADB_DATABASE:-}" ] ||
        echo "GRANT ALL ON \`$MARIADB_DATABASE\`.* TO $(sql_string "$MARIADB_USER")@'%';"
    fi
  } | mariadb --socket=/run/mysqld/init.sock -uroot
  mariadb-admin --socket=/run/mysqld/init.sock -uroot shutdown
  wait "$init_pid" || true
  echo "initialised"
fi
exec "$@" --user=mysql
