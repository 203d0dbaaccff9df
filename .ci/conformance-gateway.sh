#!/bin/sh
# The MCP conformance suite's server scenarios (@modelcontextprotocol/conformance 0.1.12, `--suite
# all`: 32 scenarios; it runs on Node 20) against our own upstream fixture, first directly, then
# through the built `toolgate-gateway --http` in front of it (an allow-all policy, one client granted
# every tool, prompt and resource, sampling allowed). Both runs read one expected-results file
# (.ci/conformance-gateway-expected.yaml): what fails directly must be listed there, and a listed
# scenario that passes fails the run, so every scenario that passes directly must pass through the
# gateway.
#
# Both eras' scenarios through the gateway: this file (2025-11-25) and conformance-gateway-modern.sh
# (2026-07-28); both start the upstream, the gateway and a bearer forwarder (the suite sends no
# token) with .ci/conformance-gateway-start.sh.
# Usage: .ci/conformance-gateway.sh SCRATCH_DIR   (after the gateway is built)
set -eu
scratch=${1:?usage: .ci/conformance-gateway.sh SCRATCH_DIR}
here=$(cd "$(dirname "$0")/.." && pwd)
conformance="$here/packages/gateway/node_modules/.bin/conformance"
expected="$here/.ci/conformance-gateway-expected.yaml"
dir="$scratch/conformance-gateway"
rm -rf "$dir" && mkdir -p "$dir"
[ -x "$conformance" ] || { echo "$conformance is missing: run pnpm install (the gateway's devDependencies hold the suite)"; exit 1; }
echo "::: MCP conformance $("$conformance" --version), server scenarios, directly and through toolgate-gateway ($(node --version))"

. "$here/.ci/conformance-gateway-start.sh"

status=0
for run in direct gateway; do
  if [ "$run" = direct ]; then url=$upstream_url; else url="http://127.0.0.1:$forward_port/mcp"; fi
  "$conformance" server --url "$url" --suite all --expected-failures "$expected" >"$dir/$run.log" 2>&1 || status=1
  echo "::: $run ($url):"
  sed 's/\x1b\[[0-9;]*m//g' "$dir/$run.log" | sed -n '/^=== SUMMARY ===/,$p' | sed -n 's/^\([✓✗].*\)/  \1/p;s/^\(Total: .*\)/  \1/p'
done
[ "$status" = 0 ] || { echo '::: unexpected results (logs below)'; for run in direct gateway; do tail -40 "$dir/$run.log"; done; cat "$dir/gateway.log"; }
# the gateway's ledger directory (one chain for this process) verifies
node "$here/packages/ledger-cli/dist/cli.js" verify "$dir/ledgers/" || { echo '::: the gateway ledger does not verify'; status=1; }
exit "$status"
