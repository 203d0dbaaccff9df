import type { PolicyRule } from '@toolgate/core';
import { ToolgateError } from '@toolgate/core';
import { parseCommandLine, wholeNumber } from '@toolgate/core/command-line';
import { forgetRules, listRules } from '@toolgate/policy-cli';
import { usage } from '../cli-options.js';
import { loadConfig } from '../config-load.js';
import { checkGatewayProcess } from '../gateway-process.js';

const options = {
  config: { type: 'string' },
  pid: { type: 'string' },
  sessions: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * `toolgate-gateway remembered --config F` (the `always` answers, numbered: the rules of the
 * `policy:` layer that says `remember: true`) and `toolgate-gateway remembered forget [N…]
 * [--sessions] [--pid PID] --config F`: removes rules N… from that file; with `--pid`, sends the
 * running gateway SIGHUP, so it reads the policy again and forgets every answer remembered for a
 * session (recorded as `approvals.forgotten`). Returns false for any other command line.
 */
export async function runRememberedCommand(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  write: (text: string) => void,
): Promise<boolean> {
  if (argv[0] !== 'remembered') return false;
  const { values, positionals } = parseCommandLine(argv.slice(1), { options, positionals: true });
  if (values.help) {
    write(usage);
    return true;
  }
  const source = values.config ?? env.TOOLGATE_GATEWAY_CONFIG;
  if (source === undefined || source === '') {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      'give the configuration: toolgate-gateway remembered --config gateway.yaml',
    );
  }
  const [action = 'list', ...rest] = positionals;
  if (action !== 'list' && action !== 'forget') {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `unknown remembered command ${JSON.stringify(action)}; use "remembered list" or "remembered forget N… [--sessions] [--pid PID]"`,
    );
  }
  const numbers = rest.map((text) => wholeNumber(text, { option: 'the rule number' }));
  const pid = values.pid === undefined ? undefined : wholeNumber(values.pid, { option: '--pid' });
  if (action === 'list' ? rest.length > 0 : numbers.length === 0 && !values.sessions) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      action === 'list'
        ? 'remembered list takes no argument: toolgate-gateway remembered --config FILE'
        : 'say what to forget: rule numbers (as remembered list shows them), --sessions, or both',
    );
  }
  if (values.sessions && pid === undefined) {
    throw new ToolgateError(
      'INVALID_DEFINITION',
      'answers remembered for a session live in the running gateway: give its process id, --pid PID',
    );
  }
  const config = await loadConfig(source, env);
  const file = config.rememberFile;
  if (file === undefined && (action === 'list' || numbers.length > 0)) {
    if (action === 'list') {
      write(`no policy: layer says remember: true in ${source}, so no "always" answer is kept\n`);
      return true;
    }
    throw new ToolgateError(
      'INVALID_DEFINITION',
      `no policy: layer says remember: true in ${source}, so there is no "always" answer to forget`,
    );
  }
  if (action === 'list') {
    const rules = await listRules(file!);
    write(
      rules.length === 0
        ? `no "always" answer is kept in ${file}\n`
        : `"always" answers in ${file} (forget one: toolgate-gateway remembered forget N --config ${source} --pid PID):\n${rules.map((rule, index) => `  ${index + 1}  ${describeRule(rule)}`).join('\n')}\n`,
    );
    return true;
  }
  // checked before the file is written: a bad pid changes nothing
  if (pid !== undefined) await checkGatewayProcess(pid);
  const removed = numbers.length === 0 ? [] : await forgetRules(file!, numbers);
  for (const rule of removed) write(`forgot in ${file}: ${describeRule(rule)}\n`);
  if (pid !== undefined) process.kill(pid, 'SIGHUP');
  write(
    pid === undefined
      ? 'send the running gateway SIGHUP to apply it (that also forgets every answer remembered for a session)\n'
      : `sent SIGHUP to ${pid}: it reads the policy again and forgets every answer remembered for a session\n`,
  );
  return true;
}

/** A rule in one line: `allow fs__read_text_file; clients desktop; paths hello.txt — why`. */
function describeRule(rule: PolicyRule): string {
  const parts = [`${rule.decision} ${(rule.tools ?? ['*']).join(', ')}`];
  for (const key of ['agents', 'clients', 'paths', 'commands', 'hosts'] as const) {
    const values = rule[key];
    if (values !== undefined && values.length > 0) parts.push(`${key} ${values.join(', ')}`);
  }
  return `${parts.join('; ')}${rule.reason ? ` — ${rule.reason}` : ''}`;
}
