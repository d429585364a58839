#!/usr/bin/env bash
# The end-to-end tests drive Debian's Chromium (never a downloaded browser). Install it when missing.
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$chromium" ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Chromium não encontrado; instalando o pacote chromium do Debian..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq chromium >/dev/null
else
  echo "Chromium não encontrado em $chromium. Instale com: sudo apt-get install -y chromium" >&2
  exit 1
fi
