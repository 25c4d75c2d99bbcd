#!/bin/sh
# Start FitTrackee with the PostgreSQL and Redis servers it needs, all in this process
# group (so the harness's stop ends all three), on loopback only, data under $1.
# Usage: fittrackee_serve.sh DATA VENV_BIN PORT
set -e
data=$1; bin=$2; port=$3
pg=$(ls -d /usr/lib/postgresql/*/bin | tail -1)
if [ ! -f "$data/pg/PG_VERSION" ]; then
  mkdir -p "$data/pg" "$data/pgsock"
  chown postgres "$data/pg" "$data/pgsock"
  runuser -u postgres -- "$pg/initdb" -D "$data/pg" -U postgres -A trust >/dev/null
fi
trap 'kill 0' EXIT  # a failed step takes the servers down with it
runuser -u postgres -- "$pg/postgres" -D "$data/pg" -k "$data/pgsock" -p $((port + 1000)) -h 127.0.0.1 &
redis-server --port $((port + 2000)) --bind 127.0.0.1 --save "" --appendonly no &
for i in $(seq 60); do
  "$pg/pg_isready" -h 127.0.0.1 -p $((port + 1000)) -q && break
  sleep 0.5
done
"$pg/psql" -h 127.0.0.1 -p $((port + 1000)) -U postgres -tc "select 1 from pg_database where datname='fittrackee'" | grep -q 1 \
  || "$pg/createdb" -h 127.0.0.1 -p $((port + 1000)) -U postgres fittrackee
"$pg/psql" -h 127.0.0.1 -p $((port + 1000)) -U postgres -qc "create extension if not exists postgis" fittrackee
"$bin/ftcli" db upgrade
trap - EXIT
exec "$bin/fittrackee"
