#!/usr/bin/env bash
# scripts/cluster.sh N [--port P] [--host H] [--redis-port P] [--data DIR] [--redis URL]
#
# Several server processes serving the same games: starts Debian's redis-server (loopback;
# a free port unless --redis-port; its data in DIR, default instance/redis, so games survive a restart)
# and N `python -m webapp` processes on ports P, P+1, ... (default 5000) that share it as
# their game store and Socket.IO message queue. Prints their URLs; Ctrl-C stops all of them.
# Put a sticky proxy in front (deploy/nginx.conf). On a second machine, point its processes
# at the first machine's Redis with --redis redis://HOST:PORT/0 (and --host 0.0.0.0).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
n=${1:-}
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "cluster: N must be a positive number of processes, got '${n}'" >&2; usage; }
shift
port=5000 host=127.0.0.1 redis_port="" redis_url="" data=instance/redis
while [ $# -gt 0 ]; do
  case "$1" in
    --port) port=${2:?}; shift 2 ;;
    --host) host=${2:?}; shift 2 ;;
    --redis-port) redis_port=${2:?}; shift 2 ;;
    --redis) redis_url=${2:?}; shift 2 ;;
    --data) data=${2:?}; shift 2 ;;
    *) echo "cluster: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ "$port" =~ ^[0-9]+$ ]] && [ "$port" -ge 1 ] && [ $((port + n - 1)) -le 65535 ] \
  || { echo "cluster: --port must leave room for $n ports below 65536, got '$port'" >&2; exit 2; }

if [ -n "$redis_url" ]; then scripts/setup.sh; else scripts/setup.sh --redis; fi
PY=.venv/bin/python

pids=()
stop_all() {
  trap - INT TERM EXIT
  echo "cluster: stopping ${#pids[@]} process(es)" >&2
  for pid in "${pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  for _ in $(seq 50); do
    alive=0
    for pid in "${pids[@]}"; do kill -0 -- "-$pid" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && return
    sleep 0.2
  done
  for pid in "${pids[@]}"; do kill -KILL -- "-$pid" 2>/dev/null || true; done
}
trap stop_all EXIT
trap 'exit 130' INT TERM

# Each child leads its own process group (setsid), so stopping it stops its search workers too.
if [ -z "$redis_url" ]; then
  [ -n "$redis_port" ] || redis_port=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  mkdir -p "$data"
  data=$(cd "$data" && pwd)
  setsid redis-server --port "$redis_port" --bind 127.0.0.1 --dir "$data" \
    --appendonly yes --save "" --logfile "$data/redis.log" &
  pids+=($!)
  redis_url="redis://127.0.0.1:$redis_port/0"
  for _ in $(seq 100); do
    redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break
    kill -0 "${pids[0]}" 2>/dev/null || { echo "cluster: redis-server failed: see $data/redis.log" >&2; exit 1; }
    sleep 0.1
  done
fi

# The processes share this machine's cores: each gets its part for search workers
# (at least one; $ARCADE_AI_PROCESSES, if set, decides instead).
workers=${ARCADE_AI_PROCESSES:-$(( $(nproc) / n > 0 ? $(nproc) / n : 1 ))}
urls=()
for i in $(seq 0 $((n - 1))); do
  p=$((port + i))
  setsid $PY -m webapp --host "$host" --port "$p" --store "$redis_url" --message-queue "$redis_url" \
    --workers "$workers" &
  pids+=($!)
  urls+=("http://$([ "$host" = 0.0.0.0 ] && echo 127.0.0.1 || echo "$host"):$p/")
done
for i in "${!urls[@]}"; do
  for _ in $(seq 300); do
    curl -fsS -o /dev/null "${urls[$i]}api/catalog" 2>/dev/null && break
    sleep 0.2
  done
done

echo
echo "cluster: Redis at $redis_url; $n server process(es):"
printf '  %s\n' "${urls[@]}"
echo "cluster: put a sticky proxy in front of them (deploy/nginx.conf); Ctrl-C stops everything"
wait
