#!/usr/bin/env bash
# Installs (Debian packages) and starts a local PostgreSQL server for the test suite, and
# creates the role `gridcast` (password `gridcast`, allowed to create databases: each test
# file makes and drops its own) and its database `gridcast`. Prints that database's URL.
# Needs root (CI and this project's machines run as root). Idempotent.
set -euo pipefail
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
version=$(ls /usr/lib/postgresql | sort -V | tail -1)
if ! pg_lsclusters -h | grep -q "^${version} main"; then
  pg_createcluster "$version" main >/dev/null
fi
pg_ctlcluster "$version" main start >/dev/null 2>&1 || true
for _ in $(seq 1 30); do
  runuser -u postgres -- pg_isready -q && break
  sleep 1
done
runuser -u postgres -- psql -q -v ON_ERROR_STOP=1 <<'SQL'
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'gridcast') THEN
    CREATE ROLE gridcast LOGIN CREATEDB PASSWORD 'gridcast';
  END IF;
END $$;
SQL
if ! runuser -u postgres -- psql -tAc "SELECT 1 FROM pg_database WHERE datname = 'gridcast'" | grep -q 1; then
  runuser -u postgres -- createdb -O gridcast gridcast
fi
echo "postgres://gridcast:gridcast@127.0.0.1:5432/gridcast"
