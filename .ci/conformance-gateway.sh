#!/bin/sh
# The MCP conformance suite's 2025-11-25 server scenarios (`--suite all`) against our own upstream
# fixture, first directly, then through the built `toolgate-gateway --http` in front of it (an
# allow-all policy, one client granted every tool, prompt and resource, sampling allowed). Both runs
# read one expected-results file: what fails directly must be listed there, and a listed scenario
# that passes fails the run, so every scenario that passes directly must pass through the gateway.
#
# Two suites: without SUITE_VERSION, the gateway's own devDependency (0.1.12, 32 scenarios; the
# last line that runs on Node 20), with .ci/conformance-gateway-expected.yaml; with it (the newest,
# 0.2.0-alpha.12, 33 scenarios at `--spec-version 2025-11-25`; Node >= 22: it imports fs.globSync,
# as 0.1.13 to 0.1.16 do), installed with npm into SCRATCH_DIR, with
# .ci/conformance-gateway-<SUITE_VERSION>-expected.yaml.
#
# Both eras' scenarios through the gateway: this file (2025-11-25) and conformance-gateway-modern.sh
# (2026-07-28); both start the upstream, the gateway and a bearer forwarder (the suite sends no
# token) with .ci/conformance-gateway-start.sh.
# Usage: .ci/conformance-gateway.sh SCRATCH_DIR [SUITE_VERSION]   (after the gateway is built)
set -eu
scratch=${1:?usage: .ci/conformance-gateway.sh SCRATCH_DIR [SUITE_VERSION]}
version=${2:-}
here=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "$version" ]; then
  conformance="$here/packages/gateway/node_modules/.bin/conformance"
  expected="$here/.ci/conformance-gateway-expected.yaml"
  dir="$scratch/conformance-gateway"
  spec=
  [ -x "$conformance" ] || { echo "$conformance is missing: run pnpm install (the gateway's devDependencies hold the suite)"; exit 1; }
else
  suite="$scratch/conformance-suite-$version"
  mkdir -p "$suite"
  [ -f "$suite/package.json" ] || (cd "$suite" && npm init -y >/dev/null)
  (cd "$suite" && npm install --no-audit --no-fund --loglevel=error "@modelcontextprotocol/conformance@$version" >/dev/null)
  conformance="$suite/node_modules/.bin/conformance"
  expected="$here/.ci/conformance-gateway-$version-expected.yaml"
  dir="$scratch/conformance-gateway-$version"
  spec=2025-11-25
fi
rm -rf "$dir" && mkdir -p "$dir"
echo "::: MCP conformance $("$conformance" --version), server scenarios, directly and through toolgate-gateway ($(node --version))"

. "$here/.ci/conformance-gateway-start.sh"

status=0
for run in direct gateway; do
  if [ "$run" = direct ]; then url=$upstream_url; else url="http://127.0.0.1:$forward_port/mcp"; fi
  "$conformance" server --url "$url" --suite all ${spec:+--spec-version "$spec"} --expected-failures "$expected" \
    >"$dir/$run.log" 2>&1 || status=1
  echo "::: $run ($url):"
  sed 's/\x1b\[[0-9;]*m//g' "$dir/$run.log" | sed -n '/^=== SUMMARY ===/,$p' | sed -n 's/^\([✓✗].*\)/  \1/p;s/^\(Total: .*\)/  \1/p'
done
[ "$status" = 0 ] || { echo '::: unexpected results (logs below)'; for run in direct gateway; do tail -40 "$dir/$run.log"; done; cat "$dir/gateway.log"; }
# the gateway's ledger directory (one chain for this process) verifies
node "$here/packages/ledger-cli/dist/cli.js" verify "$dir/ledgers/" || { echo '::: the gateway ledger does not verify'; status=1; }
exit "$status"
