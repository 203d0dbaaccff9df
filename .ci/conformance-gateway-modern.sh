#!/bin/sh
# The MCP conformance suite's 2026-07-28 server scenarios (@modelcontextprotocol/conformance
# 0.2.0-alpha.12, each at `--spec-version 2026-07-28`) through the built `toolgate-gateway --http`
# to our upstream fixture, which speaks 2025-11-25: a modern, stateless client served by the gateway
# from a legacy upstream with sessions. The upstream, the gateway and the bearer forwarder are the
# ones .ci/conformance-gateway.sh starts (.ci/conformance-gateway-start.sh). The suite needs
# Node >= 22 (it imports fs.globSync), so .ci/run calls this on the Node 24 leg, after that leg
# built every package; it installs the suite itself (npm) into SCRATCH_DIR.
# .ci/conformance-gateway-modern-expected.yaml names each check that cannot pass, each with why; a
# listed check that passes fails the run, as does any other check that does not pass.
# Not run: the extension scenarios (tasks-*, sep-2640 skills), and those of 2025-11-25 and earlier
# only (conformance-gateway.sh runs them).
# Usage: .ci/conformance-gateway-modern.sh SCRATCH_DIR   (after the gateway and ledger-cli are built)
set -eu
scratch=${1:?usage: .ci/conformance-gateway-modern.sh SCRATCH_DIR}
version=0.2.0-alpha.12
here=$(cd "$(dirname "$0")/.." && pwd)
expected="$here/.ci/conformance-gateway-modern-expected.yaml"
suite="$scratch/conformance-gateway-modern-suite"
dir="$scratch/conformance-gateway-modern"
rm -rf "$dir" && mkdir -p "$dir" "$suite"
echo "::: MCP conformance $version, 2026-07-28 server scenarios, through toolgate-gateway to a 2025-11-25 upstream ($(node --version))"
[ -f "$suite/package.json" ] || (cd "$suite" && npm init -y >/dev/null)
(cd "$suite" && npm install --no-audit --no-fund --loglevel=error "@modelcontextprotocol/conformance@$version" >/dev/null)

. "$here/.ci/conformance-gateway-start.sh"
url="http://127.0.0.1:$forward_port/mcp"

# run_scenario LOG ARG...: one scenario at 2026-07-28 through the gateway, its output to LOG
run_scenario() {
  log=$1
  shift
  "$suite/node_modules/.bin/conformance" server --url "$url" "$@" --spec-version 2026-07-28 \
    --expected-failures "$expected" >"$log" 2>&1
}
. "$here/.ci/conformance-scenarios.sh"
run_scenarios "$dir" ' (some baselined)' continue \
  server-stateless completion-complete tools-list tools-call-simple-text tools-call-image \
  tools-call-audio tools-call-embedded-resource tools-call-mixed-content tools-call-error \
  tools-call-with-progress json-schema-2020-12 server-sse-multiple-streams resources-list \
  resources-read-text resources-read-binary resources-templates-read sep-2164-resource-not-found \
  prompts-list prompts-get-simple prompts-get-with-args prompts-get-embedded-resource \
  prompts-get-with-image dns-rebinding-protection caching http-header-validation \
  http-custom-header-server-validation input-required-result-basic-elicitation \
  input-required-result-basic-sampling input-required-result-basic-list-roots \
  input-required-result-request-state input-required-result-multiple-input-requests \
  input-required-result-multi-round input-required-result-missing-input-response \
  input-required-result-non-tool-request input-required-result-result-type \
  input-required-result-unsupported-methods input-required-result-tampered-state \
  input-required-result-capability-check input-required-result-ignore-extra-params \
  input-required-result-validate-input
echo "2026-07-28 scenarios through the gateway: $passed passed, $baselined with baselined checks${failed:+, unexpected:$failed}"
[ -z "$failed" ] || { for scenario in $failed; do echo "::: $scenario"; tail -40 "$dir/$scenario.log"; done; echo '::: gateway log'; cat "$dir/gateway.log"; }
# the gateway's ledger directory (one chain for this process) verifies
node "$here/packages/ledger-cli/dist/cli.js" verify "$dir/ledgers/" || { echo '::: the gateway ledger does not verify'; status=1; }
exit "$status"
