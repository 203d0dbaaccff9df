# Sourced by the .ci/conformance-*.sh scripts that run the MCP conformance suite one scenario at a
# time against an expected-failures file (conformance-modern.sh, conformance-gateway-modern.sh,
# conformance-client.sh, conformance-auth.sh): defines run_scenarios, the loop they share. Each
# script defines, before calling it, how to run one scenario:
#
#   run_scenario LOG ARG...   runs the suite once with ARG... (--scenario NAME, and --spec-version
#                             VERSION where the entry names one) and the script's expected-failures
#                             file, its output to LOG; exits as the suite did.
#
# run_scenarios LOG_DIR NOTE ON_FAILURE ENTRY...
#   Runs each ENTRY, `scenario` or `scenario@spec-version` (without a version the suite picks the
#   scenario's own), its log LOG_DIR/<ENTRY, each / and @ as _>.log, and prints one line per entry:
#   `ENTRY: Passed: …` (the suite's last count), NOTE appended where the suite reported failures
#   that its baseline expects. ON_FAILURE: `stop` prints the log of the first entry that fails and
#   runs none after it; `continue` runs every entry.
#   Sets status (1 once an entry failed, else 0), passed (entries that passed with no failure),
#   baselined (entries that passed with expected failures) and failed (each entry that failed, after
#   a space).
run_scenarios() {
  scenarios_dir=$1 scenarios_note=$2 scenarios_on_failure=$3
  shift 3
  status=0 passed=0 baselined=0 failed=
  for scenarios_entry in "$@"; do
    scenarios_name=${scenarios_entry%@*}
    scenarios_version=
    [ "$scenarios_entry" = "$scenarios_name" ] || scenarios_version=${scenarios_entry#*@}
    scenarios_log="$scenarios_dir/$(echo "$scenarios_entry" | tr '/@' '__').log"
    if run_scenario "$scenarios_log" --scenario "$scenarios_name" \
      ${scenarios_version:+--spec-version "$scenarios_version"}; then
      if grep -q 'Expected failures (in baseline)' "$scenarios_log"; then
        baselined=$((baselined + 1))
      else
        passed=$((passed + 1))
      fi
    else
      status=1 failed="$failed $scenarios_entry"
    fi
    scenarios_said=
    if grep -q 'Expected failures (in baseline)' "$scenarios_log"; then scenarios_said=$scenarios_note; fi
    echo "$scenarios_entry: $(grep -E '^Passed: ' "$scenarios_log" | tail -1)$scenarios_said"
    if [ "$status" != 0 ] && [ "$scenarios_on_failure" = stop ]; then
      cat "$scenarios_log"
      break
    fi
  done
}
