#!/usr/bin/env bash
# Runs N Parda replicas on one PostgreSQL and one Redis behind nginx, all on loopback
# (docs/deploy.md). Stops everything it started when it exits (Ctrl-C, SIGTERM, or nginx
# exiting).
#
#   PARDA_DATABASE_URL=postgres://... PARDA_REDIS_URL=redis://... deploy/replicas.sh
#   deploy/replicas.sh -- node dist/src/cli/main.js    # the parda command to run
#
# Settings (environment):
#   PARDA_DATABASE_URL   required, postgres://...: the database every replica shares
#   PARDA_REDIS_URL      required, redis://...: the rate-limit counters every replica shares
#   PARDA_REPLICAS       replicas to start (default 2)
#   PARDA_REPLICA_PORTS  their ports, comma-separated (default 8001, 8002, ...)
#   PARDA_PROXY_HOST     nginx's address (default 127.0.0.1)
#   PARDA_PROXY_PORT     nginx's port (default 8000)
#   PARDA_RUN_DIR        the run folder: nginx.conf, logs, pids (default var/replicas)
#   PARDA_PROXY_READ_TIMEOUT_S  nginx's proxy_read_timeout (default 600)
#   PARDA_START_TIMEOUT_S  how long the replicas may take to become ready (default 180)
#   NGINX                the nginx binary (default: nginx on PATH, else /usr/sbin/nginx)
#   PARDA_MAX_UPLOAD_MB and every other PARDA_ setting are passed to the replicas as
#   they are; PARDA_MAX_UPLOAD_MB also sets nginx's client_max_body_size.
#
# When everything is up it prints "ready: http://HOST:PORT" on standard output. Replica i's
# output goes to RUN_DIR/logs/replica-i.log and its process id to RUN_DIR/replica-i.pid.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"

parda=("$root/bin/parda")
if [ "${1:-}" = "--" ]; then
  shift
  [ "$#" -gt 0 ] || { echo "replicas.sh: no command after --" >&2; exit 2; }
  parda=("$@")
elif [ "$#" -gt 0 ]; then
  echo "usage: deploy/replicas.sh [-- PARDA-COMMAND...]" >&2
  exit 2
fi

fail() {
  echo "replicas.sh: $*" >&2
  exit 1
}

: "${PARDA_DATABASE_URL:?replicas.sh: set PARDA_DATABASE_URL to a postgres:// URL}"
: "${PARDA_REDIS_URL:?replicas.sh: set PARDA_REDIS_URL to a redis:// URL}"
case "$PARDA_DATABASE_URL" in
  postgres://* | postgresql://*) ;;
  *) fail "PARDA_DATABASE_URL must be PostgreSQL: replicas cannot share a SQLite file" ;;
esac
export PARDA_DATABASE_URL PARDA_REDIS_URL

replicas="${PARDA_REPLICAS:-2}"
proxy_host="${PARDA_PROXY_HOST:-127.0.0.1}"
proxy_port="${PARDA_PROXY_PORT:-8000}"
run_dir="${PARDA_RUN_DIR:-$root/var/replicas}"
read_timeout="${PARDA_PROXY_READ_TIMEOUT_S:-600}"
upload_mb="${PARDA_MAX_UPLOAD_MB:-50}"

if [ -n "${PARDA_REPLICA_PORTS:-}" ]; then
  IFS=',' read -r -a ports <<<"$PARDA_REPLICA_PORTS"
else
  ports=()
  for ((i = 1; i <= replicas; i++)); do ports+=($((8000 + i))); done
fi
[ "${#ports[@]}" -ge 1 ] || fail "no replica ports"

nginx_bin="${NGINX:-$(command -v nginx || true)}"
[ -n "$nginx_bin" ] || nginx_bin=/usr/sbin/nginx
[ -x "$nginx_bin" ] || fail "nginx not found (set NGINX, or install nginx-light)"

mkdir -p "$run_dir/logs" "$run_dir/tmp"
run_dir="$(cd "$run_dir" && pwd)"

pids=()
nginx_pid=""
stop_all() {
  trap - EXIT INT TERM
  # nginx's SIGQUIT is its graceful stop: it closes its port and finishes the requests under
  # way. SIGTERM to a replica: it reports not ready and finishes its in-flight requests.
  [ -n "$nginx_pid" ] && kill -QUIT "$nginx_pid" 2>/dev/null || true
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  # Give them the replicas' grace period and 5 seconds more, then end what is left.
  for _ in $(seq 1 $(((${PARDA_SHUTDOWN_GRACE_SECONDS:-30} + 5) * 10))); do
    alive=0
    for pid in "${pids[@]}" $nginx_pid; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.1
  done
  for pid in "${pids[@]}" $nginx_pid; do kill -KILL "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap stop_all EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# Migrations once, before any replica starts (each replica would also migrate on start;
# doing it here keeps them from racing for the migration lock).
"${parda[@]}" migrate >"$run_dir/logs/migrate.log" 2>&1 ||
  fail "migration failed (see $run_dir/logs/migrate.log)"

for i in "${!ports[@]}"; do
  n=$((i + 1))
  PARDA_HOST=127.0.0.1 PARDA_PORT="${ports[$i]}" PARDA_WORKERS=1 \
    "${parda[@]}" serve >"$run_dir/logs/replica-$n.log" 2>&1 &
  pids+=($!)
  echo "$!" >"$run_dir/replica-$n.pid"
done

# Readiness: each replica's /health/ready (database, Redis and document pool) must answer
# 200 before nginx starts sending it requests.
ready() {
  if command -v curl >/dev/null; then
    curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$1/health/ready"
  else
    node -e 'fetch(process.argv[1],{signal:AbortSignal.timeout(2000)})
      .then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))' \
      "http://127.0.0.1:$1/health/ready"
  fi
}
deadline=$((SECONDS + ${PARDA_START_TIMEOUT_S:-180}))
for i in "${!ports[@]}"; do
  until ready "${ports[$i]}" 2>/dev/null; do
    kill -0 "${pids[$i]}" 2>/dev/null ||
      fail "replica $((i + 1)) exited (see $run_dir/logs/replica-$((i + 1)).log)"
    [ "$SECONDS" -lt "$deadline" ] || fail "replica $((i + 1)) not ready in time"
    sleep 0.3
  done
done

servers=""
for port in "${ports[@]}"; do
  servers+="    server 127.0.0.1:$port max_fails=3 fail_timeout=10s;"$'\n'
done
conf="$(<"$here/nginx.conf.template")"
conf="${conf//@@UPSTREAM_SERVERS@@/${servers%$'\n'}}"
conf="${conf//@@LISTEN@@/$proxy_host:$proxy_port}"
conf="${conf//@@MAX_BODY_MB@@/$((upload_mb + 1))}"
conf="${conf//@@READ_TIMEOUT_S@@/$read_timeout}"
printf '%s\n' "$conf" >"$run_dir/nginx.conf"

"$nginx_bin" -e "$run_dir/logs/error.log" -p "$run_dir/" -c "$run_dir/nginx.conf" -t -q \
  2>"$run_dir/logs/nginx-check.log" ||
  fail "nginx rejected the configuration (see $run_dir/logs/nginx-check.log)"
# In the foreground (daemon off), as this script's child: the trap can stop it.
"$nginx_bin" -e "$run_dir/logs/error.log" -p "$run_dir/" -c "$run_dir/nginx.conf" -g 'daemon off;' \
  2>>"$run_dir/logs/error.log" &
nginx_pid=$!

for _ in $(seq 1 50); do
  [ -s "$run_dir/nginx.pid" ] && break
  kill -0 "$nginx_pid" 2>/dev/null || fail "nginx exited (see $run_dir/logs/error.log)"
  sleep 0.1
done
echo "ready: http://$proxy_host:$proxy_port"

# Until nginx exits or this script is told to stop. A replica that dies is not restarted
# here (nginx sends its requests to the others); in production a supervisor does that.
wait "$nginx_pid"
