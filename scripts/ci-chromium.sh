#!/usr/bin/env bash
# Installs Debian's Chromium for the dashboard's browser tests (test/dashboard.test.ts drives it
# with playwright-core at /usr/bin/chromium; no browser is ever downloaded by npm). Needs root
# (CI and this project's machines run as root). Idempotent: does nothing when it is installed.
set -euo pipefail
if [ ! -x /usr/bin/chromium ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
/usr/bin/chromium --version 2>/dev/null
