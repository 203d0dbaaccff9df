#!/bin/sh
# The MCP conformance suite's server scenarios (@modelcontextprotocol/conformance 0.1.12, `--suite
# all`: 32 scenarios; it runs on Node 20) against our own upstream fixture, first directly, then
# through the built `toolgate-gateway --http` in front of it (an allow-all policy, one client granted
# every tool, prompt and resource, sampling allowed). Both runs read one expected-results file
# (.ci/conformance-gateway-expected.yaml): what fails directly must be listed there, and a listed
# scenario that passes fails the run, so every scenario that passes directly must pass through the
# gateway.
#
# The suite's server mode cannot send a bearer token, and the gateway serves no client without
# one. A loopback forwarder (packages/gateway/src/testing-fixtures/bearer-forwarder.mjs) adds
# `Authorization: Bearer …` and passes everything else through unchanged, Host and Origin
# included; the gateway's `http.allowed_hosts` names the forwarder's loopback address, as for any
# gateway behind a reverse proxy, so its DNS-rebinding checks are still what the suite meets.
# Usage: .ci/conformance-gateway.sh SCRATCH_DIR   (after the gateway is built)
set -eu
scratch=${1:?usage: .ci/conformance-gateway.sh SCRATCH_DIR}
here=$(cd "$(dirname "$0")/.." && pwd)
fixtures="$here/packages/gateway/src/testing-fixtures"
conformance="$here/packages/gateway/node_modules/.bin/conformance"
expected="$here/.ci/conformance-gateway-expected.yaml"
dir="$scratch/conformance-gateway"
rm -rf "$dir" && mkdir -p "$dir"
[ -x "$conformance" ] || { echo "$conformance is missing: run pnpm install (the gateway's devDependencies hold the suite)"; exit 1; }
echo "::: MCP conformance $("$conformance" --version), server scenarios, directly and through toolgate-gateway ($(node --version))"

pids=
trap 'for pid in $pids; do kill "$pid" 2>/dev/null || true; done' EXIT INT TERM
# wait_for LOG PATTERN PID: the first line of LOG matching PATTERN (sed), once it appears
wait_for() {
  for _ in $(seq 1 300); do
    found=$(sed -n "$2" "$1")
    [ -n "$found" ] && { echo "$found"; return 0; }
    kill -0 "$3" 2>/dev/null || break
    sleep 0.2
  done
  echo "did not start:" >&2; cat "$1" >&2; return 1
}
free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

node "$fixtures/conformance-upstream.mjs" >"$dir/upstream.log" 2>&1 &
upstream=$!; pids="$upstream"
upstream_url=$(wait_for "$dir/upstream.log" 's/^conformance upstream listening on \(http[^ ]*\)$/\1/p' "$upstream")

forward_port=$(free_port)
token=conformance-suite-token-$(node -e 'console.log(require("crypto").randomBytes(12).toString("hex"))')
cat >"$dir/gateway.yaml" <<YAML
servers:
  conformance: { url: "$upstream_url" }
clients:
  suite: { token_env: SUITE_TOKEN, tools: ["*"], prompts: ["*"], resources: ["conformance:**"], sampling: allow }
http:
  port: 0
  allowed_hosts: ["127.0.0.1:$forward_port", "localhost:$forward_port", "[::1]:$forward_port"]
policy: { default: allow, rules: [] }
ledger: ./ledgers/
new_tools: allow
YAML
SUITE_TOKEN=$token node "$here/packages/gateway/dist/cli.js" --config "$dir/gateway.yaml" --http >"$dir/gateway.log" 2>&1 &
gateway=$!; pids="$pids $gateway"
gateway_url=$(wait_for "$dir/gateway.log" 's/^toolgate-gateway: listening on \(http:\/\/[^/]*\)\/.*$/\1/p' "$gateway")
FORWARD_TOKEN=$token node "$fixtures/bearer-forwarder.mjs" --target "$gateway_url" --port "$forward_port" >"$dir/forwarder.log" 2>&1 &
forwarder=$!; pids="$pids $forwarder"
wait_for "$dir/forwarder.log" 's/^forwarder listening on \(.*\)$/\1/p' "$forwarder" >/dev/null

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
