import { parseCommandLine } from '@toolgate/core/command-line';
import { loadPolicyFiles, type PolicyFiles, placeOf } from '../policy-files.js';
import { lintPolicy } from '../policy-lint.js';
import { type CliIo, exitCodes, loadFailure, usageFailure } from './main.js';

/** Runs `toolgate policy check FILE…`: load (examples checked), then lint; 0 clean, 1 refused or findings. */
export async function checkCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let files: string[];
  let json = false;
  try {
    const { values, positionals } = parseCommandLine(argv, {
      options: { json: { type: 'boolean' } },
      positionals: true,
    });
    files = positionals;
    json = values.json === true;
  } catch (error) {
    return usageFailure(io, `policy check: ${(error as Error).message}`);
  }
  if (files.length === 0)
    return usageFailure(io, '"policy check" needs at least one policy FILE or directory');
  let loaded: PolicyFiles;
  try {
    loaded = loadPolicyFiles(files);
  } catch (error) {
    return loadFailure(io, 'check', error);
  }
  const findings = lintPolicy(loaded.policy, (index) => placeOf(loaded.layers, index));
  const rules = loaded.policy.document.rules;
  const examples = rules.reduce(
    (sum, rule) => sum + (rule.examples?.match?.length ?? 0) + (rule.examples?.not_match?.length ?? 0),
    0,
  );
  if (json) {
    io.stdout.write(
      `${JSON.stringify({ layers: loaded.layers, rules: rules.length, examples, findings }, null, 2)}\n`,
    );
  } else {
    const layers = loaded.layers
      .map((layer) => `${layer.name} (${layer.rules} rules, ${layer.file})`)
      .join(', ');
    io.stdout.write(`layers, most authoritative first: ${layers}\n`);
    io.stdout.write(`${rules.length} rules, ${examples} examples checked\n`);
    for (const finding of findings) io.stdout.write(`${finding.message}\n`);
    io.stdout.write(
      findings.length === 0
        ? 'ok: every rule can decide a call\n'
        : `${findings.length} rule(s) never decide\n`,
    );
  }
  return findings.length === 0 ? exitCodes.ok : exitCodes.refused;
}
