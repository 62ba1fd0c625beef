#!/usr/bin/env bash
# A three-node MariaDB Galera cluster on loopback, for the fleet test (test/fleet) and by hand.
#
#   scripts/fleet/galera.sh start          # start what is not running; waits for wsrep_cluster_size=3
#   scripts/fleet/galera.sh stop           # SIGTERM every node, wait for each to exit
#   scripts/fleet/galera.sh clean          # stop, then delete the data
#   scripts/fleet/galera.sh status         # per node: pid, wsrep state, cluster size
#   scripts/fleet/galera.sh kill N         # SIGKILL node N (what the test does under load)
#   scripts/fleet/galera.sh start-node N   # (re)start node N alone; it joins the running cluster
#   scripts/fleet/galera.sh wait-size K    # wait until a running node reports wsrep_cluster_size=K
#
# Node N (1..3): SQL 127.0.0.1:331N, gcomm 457N, IST 458N, SST (rsync) 459N. Data under
# $FLEET_DIR (default ${TMPDIR:-/tmp}/qr-service-fleet/galera: the rsync SST daemon of a joiner
# runs as nobody, which must reach the datadir, so not under /root). mariadbd runs as
# root (--user=root) from a generated my.cnf per node (--defaults-file: /etc/mysql is not read,
# so the machine's own MariaDB on 3306 is untouched). Users made once on the bootstrap node:
# fleet@127.0.0.1 (all privileges, no password) and haproxy@127.0.0.1 (no privileges, for
# HAProxy's mysql-check). Database: qr.
set -euo pipefail

FLEET_DIR=${FLEET_DIR:-${TMPDIR:-/tmp}/qr-service-fleet/galera}
GALERA_LIB=${GALERA_LIB:-/usr/lib/galera/libgalera_smm.so}
NODES=(1 2 3)
WAIT_S=${GALERA_WAIT_S:-120}

die() { echo "galera.sh: $*" >&2; exit 1; }
log() { echo "galera.sh: $*" >&2; }

sql_port() { echo $((3310 + $1)); }
node_dir() { echo "$FLEET_DIR/node$1"; }
sock() { echo "$(node_dir "$1")/mysqld.sock"; }
pidfile() { echo "$(node_dir "$1")/mysqld.pid"; }
# The pid as launched (mariadbd writes its own pid file only after a joiner's state transfer).
launched_pid() { echo "$(node_dir "$1")/launched.pid"; }

node_pid() {
  local f pid
  for f in "$(launched_pid "$1")" "$(pidfile "$1")"; do
    [[ -f $f ]] || continue
    pid=$(<"$f")
    [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null && { echo "$pid"; return 0; }
  done
  return 1
}

q() { # q N SQL: run SQL as root over node N's socket, tab-separated, no headers
  mariadb --no-defaults -uroot --socket="$(sock "$1")" -N -B -e "$2" 2>/dev/null
}

wsrep_var() { q "$1" "SHOW GLOBAL STATUS LIKE '$2'" | awk '{print $2}'; }

write_cnf() {
  local n=$1 dir; dir=$(node_dir "$n")
  mkdir -p "$dir"
  cat >"$dir/my.cnf" <<EOF
[mariadbd]
user=root
basedir=$FLEET_DIR
lc_messages_dir=/usr/share/mysql
plugin_dir=/usr/lib/mysql/plugin
datadir=$dir/data
socket=$(sock "$n")
pid-file=$(pidfile "$n")
log-error=$dir/error.log
bind-address=127.0.0.1
port=$(sql_port "$n")
# Small footprint: three nodes share a 2-core machine with other work.
innodb_buffer_pool_size=64M
innodb_log_file_size=48M
performance_schema=OFF
max_connections=200
skip-name-resolve
character-set-server=utf8mb4
collation-server=utf8mb4_unicode_ci
# What Galera requires.
binlog_format=ROW
default_storage_engine=InnoDB
innodb_autoinc_lock_mode=2
innodb_flush_log_at_trx_commit=2
wsrep_on=ON
wsrep_provider=$GALERA_LIB
wsrep_cluster_name=qr-fleet
wsrep_cluster_address=gcomm://127.0.0.1:4571,127.0.0.1:4572,127.0.0.1:4573
wsrep_node_name=node$n
wsrep_node_address=127.0.0.1:$((4570 + n))
wsrep_provider_options="gmcast.listen_addr=tcp://127.0.0.1:$((4570 + n));ist.recv_addr=127.0.0.1:$((4580 + n));gcache.size=128M"
wsrep_sst_method=rsync
wsrep_sst_receive_address=127.0.0.1:$((4590 + n))
# Causal reads: a read waits until this node applied what the cluster committed before it, so a
# code created through one node is found at once through another.
wsrep_sync_wait=1
EOF
}

init_datadir() {
  local n=$1 dir; dir=$(node_dir "$n")
  [[ -d $dir/data/mysql ]] && return 0
  log "node$n: mariadb-install-db into $dir/data"
  rm -rf "$dir/data"
  mariadb-install-db --defaults-file="$dir/my.cnf" --basedir=/usr --user=root --datadir="$dir/data" \
    --skip-test-db --auth-root-authentication-method=socket >"$dir/install.log" 2>&1 \
    || { tail -20 "$dir/install.log" >&2; die "node$n: mariadb-install-db failed (log: $dir/install.log)"; }
}

# Waits until node N answers on its socket and is Synced (a joiner ends SST/IST first).
wait_synced() {
  local n=$1 deadline=$((SECONDS + WAIT_S)) state=""
  while ((SECONDS < deadline)); do
    node_pid "$n" >/dev/null || { tail -30 "$(node_dir "$n")/error.log" >&2; die "node$n: mariadbd exited (log: $(node_dir "$n")/error.log)"; }
    state=$(wsrep_var "$n" wsrep_local_state_comment || true)
    [[ $state == Synced ]] && return 0
    sleep 0.5
  done
  die "node$n: not Synced after ${WAIT_S}s (state '${state:-no answer}'; log: $(node_dir "$n")/error.log)"
}

# The joiner's rsync SST daemon, started by root, drops to uid nobody by default, which cannot
# write into a datadir of root's (mariadb-install-db makes it 0700). wsrep_sst_rsync has no
# setting for this, and mariadbd puts <basedir>/bin first in the PATH of its SST scripts: so
# basedir is $FLEET_DIR, whose bin/rsync keeps the daemon as root (and is plain rsync otherwise).
write_rsync_wrapper() {
  local real; real=$(PATH=${PATH#"$FLEET_DIR/bin:"} command -v rsync)
  mkdir -p "$FLEET_DIR/bin"
  cat >"$FLEET_DIR/bin/rsync" <<WRAPPER
#!/bin/sh
case " \$* " in *" --daemon "*) exec $real --dparam=uid=root --dparam=gid=root "\$@" ;; esac
exec $real "\$@"
WRAPPER
  chmod +x "$FLEET_DIR/bin/rsync"
}

launch() { # launch N [--wsrep-new-cluster]
  local n=$1; shift
  local dir; dir=$(node_dir "$n")
  write_cnf "$n"
  init_datadir "$n"
  log "node$n: starting on 127.0.0.1:$(sql_port "$n") $*"
  # setsid: not in the caller's process group, so a Ctrl-C of the caller does not kill the node.
  write_rsync_wrapper
  setsid mariadbd --defaults-file="$dir/my.cnf" --user=root "$@" </dev/null >>"$dir/stdout.log" 2>&1 &
  echo $! >"$(launched_pid "$n")"
  wait_synced "$n"
  log "node$n: Synced (pid $(node_pid "$n"))"
}

# The node to bootstrap when none runs: the one Galera marked safe_to_bootstrap (the last to
# stop cleanly); else node1, forced (after a crash of all three; fine for test data).
bootstrap_node() {
  local n
  for n in "${NODES[@]}"; do
    grep -qs '^safe_to_bootstrap: 1' "$(node_dir "$n")/data/grastate.dat" && { echo "$n"; return; }
  done
  local g; g="$(node_dir 1)/data/grastate.dat"
  if [[ -f $g ]]; then
    log "no node is marked safe_to_bootstrap; forcing node1"
    sed -i 's/^safe_to_bootstrap: 0/safe_to_bootstrap: 1/' "$g"
  fi
  echo 1
}

any_running() { local n; for n in "${NODES[@]}"; do node_pid "$n" >/dev/null && { echo "$n"; return 0; }; done; return 1; }

cluster_size() { local n; n=$(any_running) || { echo 0; return; }; wsrep_var "$n" wsrep_cluster_size || echo 0; }

wait_size() {
  local want=$1 deadline=$((SECONDS + WAIT_S)) size=0
  while ((SECONDS < deadline)); do
    size=$(cluster_size)
    [[ $size == "$want" ]] && return 0
    sleep 0.5
  done
  die "wsrep_cluster_size is ${size:-?}, not $want, after ${WAIT_S}s"
}

ensure_users() {
  local n=$1
  q "$n" "CREATE DATABASE IF NOT EXISTS qr CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
    CREATE USER IF NOT EXISTS 'fleet'@'127.0.0.1';
    GRANT ALL PRIVILEGES ON *.* TO 'fleet'@'127.0.0.1' WITH GRANT OPTION;
    CREATE USER IF NOT EXISTS 'haproxy'@'127.0.0.1';" \
    || die "node$n: could not create the qr database and the fleet/haproxy users"
}

start_all() {
  command -v mariadbd >/dev/null || die "mariadbd not found"
  [[ -f $GALERA_LIB ]] || die "Galera provider not found at $GALERA_LIB (apt-get install galera-4)"
  command -v rsync >/dev/null || die "rsync not found (the SST method)"
  mkdir -p "$FLEET_DIR"
  local first n
  if first=$(any_running); then
    log "node$first already running: joining the others to it"
  else
    first=$(bootstrap_node)
    launch "$first" --wsrep-new-cluster
  fi
  ensure_users "$first"
  for n in "${NODES[@]}"; do
    node_pid "$n" >/dev/null && continue
    launch "$n"
  done
  wait_size 3
  log "cluster up: wsrep_cluster_size=3, SQL on 127.0.0.1:3311-3313 (user fleet, database qr)"
}

stop_node() {
  local n=$1 pid
  pid=$(node_pid "$n") || return 0
  log "node$n: SIGTERM $pid"
  kill -TERM "$pid"
  local deadline=$((SECONDS + 60))
  while kill -0 "$pid" 2>/dev/null; do
    ((SECONDS < deadline)) || die "node$n: pid $pid still alive 60s after SIGTERM"
    sleep 0.2
  done
}

stop_all() {
  # Reverse order: node1, the usual bootstrap node, stops last and is marked safe_to_bootstrap.
  local n
  for n in 3 2 1; do stop_node "$n"; done
}

status() {
  local n pid
  for n in "${NODES[@]}"; do
    if pid=$(node_pid "$n"); then
      echo "node$n pid=$pid port=$(sql_port "$n") state=$(wsrep_var "$n" wsrep_local_state_comment) size=$(wsrep_var "$n" wsrep_cluster_size)"
    else
      echo "node$n down"
    fi
  done
}

check_n() { [[ ${1:-} =~ ^[123]$ ]] || die "node number 1, 2 or 3 expected, got '${1:-}'"; }

case "${1:-}" in
  start) start_all ;;
  stop) stop_all ;;
  clean) stop_all; rm -rf "$FLEET_DIR"; log "removed $FLEET_DIR" ;;
  status) status ;;
  kill)
    check_n "${2:-}"
    pid=$(node_pid "$2") || die "node$2 is not running"
    kill -KILL "$pid"
    while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
    log "node$2: SIGKILLed $pid"
    ;;
  start-node)
    check_n "${2:-}"
    if node_pid "$2" >/dev/null; then log "node$2 already running"; exit 0; fi
    any_running >/dev/null || die "no node running: use start (which bootstraps)"
    launch "$2"
    ;;
  wait-size) wait_size "${2:?size expected}" ;;
  dir) echo "$FLEET_DIR" ;;
  *) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
