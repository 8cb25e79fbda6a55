#!/usr/bin/env bash
# Runs the conformance kit (Better Auth 1.3.4 side by side with authd) against this checkout, with authd's
# own scenarios from test/conformance/ added to the kit's. The kit is read-only: it is copied to a scratch
# directory first. Usage: npm run conformance [-- ONLY=two-factor]
#   CONFORMANCE_KIT  where the kit lives (default: ../shared/conformance)
#   ONLY             scenario files to run (substrings, comma-separated), as the kit's run.mjs takes it
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
kit="${CONFORMANCE_KIT:-$root/../shared/conformance}"
if [ ! -f "$kit/run.mjs" ]; then
  echo "conformance: no kit at $kit (set CONFORMANCE_KIT to the folder holding run.mjs)" >&2
  exit 2
fi
for arg in "$@"; do export "$arg"; done
work="$(mktemp -d "${TMPDIR:-/tmp}/authd-conformance-XXXXXX")"
trap 'rm -rf "$work"' EXIT
cp -r "$kit/." "$work/"
cp "$root"/test/conformance/scenarios/*.mjs "$work/scenarios/"
cp "$root"/test/conformance/golden/*.json "$work/golden/"
(cd "$work" && npm ci --no-audit --no-fund --silent >/dev/null)
# The magic-link scenario simulates clients with X-Forwarded-For from the loopback peer.
cd "$work" && AUTH_TRUSTED_PROXIES="${AUTH_TRUSTED_PROXIES:-127.0.0.1}" DAEMON_DIR="$root" node run.mjs check
