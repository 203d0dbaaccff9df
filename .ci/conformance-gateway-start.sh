# Sourced by .ci/conformance-gateway.sh and .ci/conformance-gateway-modern.sh (with `here`, the
# checkout, and `dir`, an empty scratch directory, set): starts our upstream fixture
# (packages/gateway/src/testing-fixtures/conformance-upstream.mjs, 2025-11-25 with sessions), the
# built `toolgate-gateway --http` in front of it (an allow-all policy, one client granted every
# tool, prompt and resource, sampling allowed, its ledger in $dir/ledgers/) and the bearer
# forwarder in front of the gateway; sets `upstream_url` and `forward_port` (the suite's URL through
# the gateway is http://127.0.0.1:$forward_port/mcp). An EXIT trap stops all three.
#
# The suite's server mode cannot send a bearer token, and the gateway serves no client without
# one. The loopback forwarder (testing-fixtures/bearer-forwarder.mjs) adds `Authorization: Bearer …`
# and passes everything else through unchanged, Host and Origin included; the gateway's
# `http.allowed_hosts` names the forwarder's loopback address, as for any gateway behind a reverse
# proxy, so its DNS-rebinding checks are still what the suite meets.
fixtures="$here/packages/gateway/src/testing-fixtures"
pids=
trap 'for pid in $pids; do kill "$pid" 2>/dev/null || true; done' EXIT INT TERM
# wait_for LOG PATTERN PID: the first line of LOG matching PATTERN (sed), once it appears
wait_for() {
  for _ in $(seq 1 300); do
    found=$(sed -n "$2" "$1" 2>/dev/null || true)  # LOG may not exist yet: its redirect runs in the child
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
