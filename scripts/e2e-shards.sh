#!/usr/bin/env bash
# The end-to-end specs in Playwright runs side by side (two by default, E2E_SHARDS), each with a shop of its
# own: its own port (E2E_PORT, then E2E_PORT + 1) and its own fresh data folder. Most of a spec's time is
# spent waiting (Pix deadlines, the server's job polls, the browser), so two runs on two cores take about
# half the time of one (docs/decisions/0055, later). The spec files are split by how long each took on the
# last run (`scripts/e2e-split.ts`), so the runs end together. Both logs are printed when both have ended;
# the script fails when either run failed. Arguments go to every run (--grep…); with spec paths among them
# the runs split those with Playwright's `--shard` instead. The build is the caller's (`npm run test:e2e`
# builds first).
set -uo pipefail
cd "$(dirname "$0")/.."

shards="${E2E_SHARDS:-2}"
base_port="${E2E_PORT:-3100}"
results="$PWD/apps/web/test-results"
mkdir -p "$results"
logs=()
pids=()
reports=()
cleanup() { rm -f "${logs[@]}"; }
trap cleanup EXIT

# Spec paths given: Playwright's own split of those. Otherwise each run gets its part of the plan.
own_specs=0
for arg in "$@"; do
  case "$arg" in *.spec.ts*) own_specs=1 ;; esac
done
parts=()
if [ "$own_specs" = 0 ]; then
  mapfile -t parts < <(node --import tsx scripts/e2e-split.ts plan "$shards")
fi

for i in $(seq 1 "$shards"); do
  log="$(mktemp -t passada-e2e-shard-"$i".XXXXXX)"
  logs+=("$log")
  report="$results/report-part-$i.json"
  reports+=("$report")
  rm -f "$report"
  if [ "$own_specs" = 0 ]; then
    # shellcheck disable=SC2206 # one spec path per word
    select=(${parts[$((i - 1))]:-})
    if [ "${#select[@]}" = 0 ]; then
      true >"$log" &
      pids+=("$!")
      continue
    fi
  else
    select=(--shard="$i/$shards")
  fi
  # E2E_DATA_DIR left unset: the config makes a fresh folder for each run (a shared one would mix shops).
  # Each run its own results folder too: a run empties its folder when it starts and writes its traces
  # there, so two runs in one folder removed each other's traces mid-test (ENOENT on closing a browser).
  env -u E2E_DATA_DIR E2E_PORT=$((base_port + i - 1)) PLAYWRIGHT_JSON_OUTPUT_NAME="$report" \
    npx playwright test -c apps/web/playwright.config.ts --reporter=list,json "${select[@]}" \
    --output="$results/part-$i" "$@" >"$log" 2>&1 &
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
# The seconds each spec took, for the next run's split.
node --import tsx scripts/e2e-split.ts record "${reports[@]}" || true
exit "$status"
