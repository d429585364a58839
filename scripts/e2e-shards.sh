#!/usr/bin/env bash
# The end-to-end specs in two Playwright runs side by side (`--shard=1/2` and `--shard=2/2`), each with a
# shop of its own: its own port (E2E_PORT, then E2E_PORT + 1) and its own fresh data folder. Most of a
# spec's time is spent waiting (Pix deadlines, the server's job polls, the browser), so two runs on two
# cores take about half the time of one (docs/decisions/0055, later). Both logs are printed when both
# have ended; the script fails when either run failed. Arguments go to both runs (a spec's path, --grep).
# The build is the caller's (`npm run test:e2e` builds first).
set -uo pipefail
cd "$(dirname "$0")/.."

shards="${E2E_SHARDS:-2}"
base_port="${E2E_PORT:-3100}"
logs=()
pids=()
cleanup() { rm -f "${logs[@]}"; }
trap cleanup EXIT

for i in $(seq 1 "$shards"); do
  log="$(mktemp -t passada-e2e-shard-"$i".XXXXXX)"
  logs+=("$log")
  # E2E_DATA_DIR left unset: the config makes a fresh folder for each run (a shared one would mix shops).
  # Each run its own results folder too: a run empties its folder when it starts and writes its traces
  # there, so two runs in one folder removed each other's traces mid-test (ENOENT on closing a browser).
  env -u E2E_DATA_DIR E2E_PORT=$((base_port + i - 1)) \
    npx playwright test -c apps/web/playwright.config.ts --shard="$i/$shards" \
    --output="$PWD/apps/web/test-results/part-$i" "$@" >"$log" 2>&1 &
  pids+=("$!")
done

status=0
for i in $(seq 1 "$shards"); do
  code=0
  wait "${pids[$((i - 1))]}" || code=$?
  echo "== end-to-end, part $i of $shards (port $((base_port + i - 1))): exit $code"
  cat "${logs[$((i - 1))]}"
  [ "$code" = 0 ] || status=1
done
exit "$status"
