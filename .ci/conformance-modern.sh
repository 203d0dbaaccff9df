#!/bin/sh
# The MCP conformance suite's 2026-07-28 server scenarios against the built `toolgate-mcp --http`.
# @modelcontextprotocol/conformance 0.2.0-alpha (the first line with 2026-07-28 scenarios) needs
# Node >= 22 (it imports fs.globSync), so .ci/run calls this on the Node 24 leg, after that leg built
# every package. The 2025-11-25 scenarios run in every leg from mcp-server's conformance.test.ts.
# The same scenarios through the gateway: .ci/conformance-gateway-modern.sh.
# Usage: .ci/conformance-modern.sh SCRATCH_DIR
set -eu
scratch=${1:?usage: .ci/conformance-modern.sh SCRATCH_DIR}
version=0.2.0-alpha.12
here=$(cd "$(dirname "$0")/.." && pwd)
dir="$scratch/conformance-modern"
mkdir -p "$dir"
echo "::: MCP conformance $version, 2026-07-28 server scenarios, against toolgate-mcp --http ($(node --version))"
[ -f "$dir/package.json" ] || (cd "$dir" && npm init -y >/dev/null)
(cd "$dir" && npm install --no-audit --no-fund --loglevel=error "@modelcontextprotocol/conformance@$version" >/dev/null)

node "$here/packages/mcp-server/dist/cli.js" --http --port 0 2>"$dir/server.log" &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT INT TERM
url=
for _ in $(seq 1 300); do
  # the log may not exist yet: its redirect runs in the child
  url=$(sed -n 's/^toolgate-mcp listening on \(http[^ ]*\).*/\1/p' "$dir/server.log" 2>/dev/null || true)
  [ -n "$url" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$dir/server.log"; exit 1; }
  sleep 0.2
done
[ -n "$url" ] || { echo "toolgate-mcp did not start:"; cat "$dir/server.log"; exit 1; }

# The scenarios that apply to a server of tools (toolgate-mcp serves no prompts, resources or tasks,
# and none of the suite's fixture tools such as test_simple_text); see conformance-expected.yaml.
# run_scenario LOG ARG...: one scenario against toolgate-mcp, its output to LOG
run_scenario() {
  log=$1
  shift
  "$dir/node_modules/.bin/conformance" server --url "$url" "$@" \
    --expected-failures "$here/.ci/conformance-expected.yaml" >"$log" 2>&1
}
. "$here/.ci/conformance-scenarios.sh"
run_scenarios "$dir" '' stop \
  server-stateless tools-list tools-call-error http-header-validation caching dns-rebinding-protection
exit "$status"
