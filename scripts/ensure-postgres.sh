#!/usr/bin/env bash
# Some API tests need a real PostgreSQL server (row locks, several server processes). This makes one
# reachable at 127.0.0.1:5432 (installing Debian's package and starting its cluster when running as
# root), creates a throw-away database, runs the given command with TEST_DATABASE_URL pointing at it,
# and drops the database afterwards. Set TEST_DATABASE_URL yourself to use another server.
set -euo pipefail

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  exec "$@"
fi

host=127.0.0.1
port=5432
ready() { command -v pg_isready >/dev/null 2>&1 && pg_isready -h "$host" -p "$port" -q; }

if ! ready; then
  if [ "$(id -u)" != "0" ]; then
    echo "PostgreSQL não responde em $host:$port. Inicie um servidor (usuário postgres, autenticação trust)" \
      "ou defina TEST_DATABASE_URL." >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  if ! command -v pg_ctlcluster >/dev/null 2>&1; then
    echo "PostgreSQL não encontrado; instalando o pacote postgresql do Debian..."
    apt-get update -qq && apt-get install -y -qq postgresql >/dev/null
    # A throw-away test server on loopback only: let the postgres user in without a password.
    sed -i -E 's/^(host\s+all\s+all\s+(127\.0\.0\.1\/32|::1\/128)\s+)\S+/\1trust/' /etc/postgresql/*/main/pg_hba.conf
  fi
  version="$(ls /etc/postgresql | sort -V | tail -n 1)"
  echo "Iniciando o PostgreSQL $version..."
  pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  for _ in $(seq 1 30); do ready && break; sleep 1; done
  if ! ready; then
    echo "PostgreSQL não iniciou em $host:$port." >&2
    exit 1
  fi
fi

db="passada_test_$$"
psql -h "$host" -p "$port" -U postgres -d postgres -qc "create database ${db}"
trap 'psql -h "$host" -p "$port" -U postgres -d postgres -qc "drop database if exists ${db} with (force)" >/dev/null || true' EXIT
TEST_DATABASE_URL="postgres://postgres@${host}:${port}/${db}" "$@"
