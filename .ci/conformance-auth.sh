#!/bin/sh
# The MCP conformance suite's auth/* client scenarios that apply to the gateway as an OAuth client of
# its upstreams: a non-interactive client given its credentials (client credentials, SEP-1046), which
# discovers the authorization server from the upstream's 401 (RFC 9728, RFC 8414) and asks for a token
# for that resource (RFC 8707). The client under test is the built `toolgate-gateway`, driven by
# packages/gateway/src/testing-fixtures/conformance-auth-client.mjs. Needs Node >= 22 (suite
# 0.2.0-alpha), so .ci/run calls this on the Node 24 leg after conformance-client.sh, once every
# package is built; it installs the suite itself (npm) into SCRATCH_DIR.
# conformance-auth-expected.yaml names what does not pass, each with why; every other check must pass.
# Also run, for their discovery (PRM from the 401 or the well-known places, RFC 8414 or OpenID
# metadata, an issuer with a path) and token endpoint authentication checks: auth/metadata-default,
# -var1..3 and auth/token-endpoint-auth-basic, -post, whose authorization code steps (registration,
# the authorization request) are baselined as not applicable.
# Not run, as they do not apply to a gateway's upstream (no user, no browser, no redirect): the
# authorization code scenarios (auth/basic-cimd, auth/iss-*, auth/scope-*, auth/offline-access-*,
# auth/2025-03-26-*, auth/token-endpoint-auth-none (a public client registered by DCR),
# auth/authorization-server-migration (re-registration by DCR)), nor those of grants the gateway
# does not offer (auth/wif-jwt-bearer, auth/enterprise-managed-authorization: jwt-bearer and token
# exchange; auth/dpop*: DPoP).
# Usage: .ci/conformance-auth.sh SCRATCH_DIR
set -eu
scratch=${1:?usage: .ci/conformance-auth.sh SCRATCH_DIR}
version=0.2.0-alpha.12
here=$(cd "$(dirname "$0")/.." && pwd)
dir="$scratch/conformance-auth"
mkdir -p "$dir"
echo "::: MCP conformance $version, auth client scenarios, against toolgate-gateway's upstream OAuth ($(node --version))"
[ -f "$dir/package.json" ] || (cd "$dir" && npm init -y >/dev/null)
(cd "$dir" && npm install --no-audit --no-fund --loglevel=error "@modelcontextprotocol/conformance@$version" >/dev/null)
client="node $here/packages/gateway/src/testing-fixtures/conformance-auth-client.mjs"

# run_scenario LOG ARG...: one scenario against the gateway, its output to LOG
run_scenario() {
  log=$1
  shift
  (cd "$dir" && ./node_modules/.bin/conformance client --command "$client" "$@" \
    --expected-failures "$here/.ci/conformance-auth-expected.yaml" >"$log" 2>&1)
}
. "$here/.ci/conformance-scenarios.sh"
run_scenarios "$dir" ' (baselined, see conformance-auth-expected.yaml)' stop \
  auth/client-credentials-basic auth/client-credentials-jwt auth/pre-registration \
  auth/resource-mismatch auth/metadata-issuer-mismatch auth/metadata-default auth/metadata-var1 \
  auth/metadata-var2 auth/metadata-var3 auth/token-endpoint-auth-basic auth/token-endpoint-auth-post
echo "auth client scenarios: $passed passed, $baselined as baselined"
exit "$status"
