#!/bin/sh
# The MCP conformance suite's client scenarios against MCPResolver (packages/mcp-client, built), driven by
# packages/mcp-client/src/testing-fixtures/conformance-client.mjs, at both revisions a scenario covers.
# @modelcontextprotocol/conformance 0.2.0-alpha (the first line with 2026-07-28 scenarios) needs
# Node >= 22, so .ci/run calls this on the Node 24 leg, after that leg built every package; it installs
# the suite itself (npm) into SCRATCH_DIR. conformance-client-expected.yaml names what does not pass
# yet, each with why; every other check must pass.
# Not run: the auth/* scenarios (MCPResolver sends the headers its config gives, a bearer token
# included, and runs no OAuth flow of its own; the gateway's upstream OAuth meets them in
# .ci/conformance-auth.sh) and the extension scenarios (sep-2640 skills).
# Usage: .ci/conformance-client.sh SCRATCH_DIR
set -eu
scratch=${1:?usage: .ci/conformance-client.sh SCRATCH_DIR}
version=0.2.0-alpha.12
here=$(cd "$(dirname "$0")/.." && pwd)
dir="$scratch/conformance-client"
mkdir -p "$dir"
echo "::: MCP conformance $version, client scenarios, against MCPResolver ($(node --version))"
[ -f "$dir/package.json" ] || (cd "$dir" && npm init -y >/dev/null)
(cd "$dir" && npm install --no-audit --no-fund --loglevel=error "@modelcontextprotocol/conformance@$version" >/dev/null)
client="node $here/packages/mcp-client/src/testing-fixtures/conformance-client.mjs"

# run_scenario LOG ARG...: one scenario against MCPResolver, its output to LOG
run_scenario() {
  log=$1
  shift
  (cd "$dir" && ./node_modules/.bin/conformance client --command "$client" "$@" \
    --expected-failures "$here/.ci/conformance-client-expected.yaml" >"$log" 2>&1)
}
. "$here/.ci/conformance-scenarios.sh"
# scenario[@spec-version]: without a version, the suite picks the scenario's own
run_scenarios "$dir" ' (baselined, see conformance-client-expected.yaml)' stop \
  initialize@2025-11-25 tools_call@2025-11-25 tools_call@2026-07-28 request-metadata \
  http-standard-headers json-schema-ref-no-deref json-schema-2020-12-preservation@2025-11-25 \
  json-schema-2020-12-preservation@2026-07-28 sse-retry http-custom-headers http-invalid-tool-headers \
  sep-2322-client-request-state elicitation-sep1034-client-defaults
echo "client scenarios: $passed passed, $baselined as baselined"
exit "$status"
