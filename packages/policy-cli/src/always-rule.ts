import type { PolicyRequest, PolicyRule } from '@toolgate/core';

/** The rule an `always` answer becomes, or why none can say exactly that call. */
export type AlwaysRule = { readonly rule: PolicyRule } | { readonly refused: string };

/**
 * The rule that gives `decision` again to the same call: the same tool, agent (by its path) and
 * gateway client, on exactly the resources it touched — each path, command and host named
 * literally (glob characters escaped), so a later call is covered only when everything it touches
 * was touched by this one. A call whose subject toolgate could not tell, one that touches nothing
 * (a rule on the tool alone would cover every call of it) and a command token a rule cannot spell
 * (whitespace, a final `*`, a word known only when it runs) get no rule: `refused` says why.
 *
 * @example
 * alwaysRule({ agent: 'desktop', tool: 'fs__read_text_file', parameters: { path: 'a.txt' }, subject: { paths: ['a.txt'] } }, 'allow', 'answered always');
 * // { rule: { tools: ['fs__read_text_file'], agents: ['desktop'], paths: ['a.txt'], decision: 'allow', reason: 'answered always' } }
 */
export function alwaysRule(request: PolicyRequest, decision: 'allow' | 'deny', reason: string): AlwaysRule {
  const { subject } = request;
  if (subject === undefined)
    return {
      refused: `toolgate could not tell what this call of "${request.tool}" touches, so no rule can name exactly it`,
    };
  if (subject.resources?.length)
    return {
      refused: 'a rule on resource URIs is not written from an answer; add one to the policy by hand',
    };
  const paths = subject.paths ?? [];
  const hosts = subject.hosts ?? [];
  const commands = subject.commands ?? [];
  if (paths.length + hosts.length + commands.length === 0)
    return {
      refused: `this call of "${request.tool}" touches no path, command or host, so a rule would cover every call of the tool`,
    };
  const unspellable = commands.find(
    (argv) =>
      argv.length === 0 ||
      argv.some((token) => token === '' || /\s|\0/.test(token)) ||
      argv[argv.length - 1] === '*',
  );
  if (unspellable !== undefined)
    return {
      refused: `the command ${JSON.stringify(unspellable.join(' '))} cannot be written as a rule's command (a token with whitespace, a final "*", or a word known only when it runs)`,
    };
  return {
    rule: {
      tools: [literalGlob(request.tool)],
      agents: [literalGlob(request.agentPath ?? request.agent)],
      ...(request.client === undefined ? {} : { clients: [literalGlob(request.client)] }),
      ...(paths.length === 0 ? {} : { paths: unique(paths).map(literalGlob) }),
      ...(commands.length === 0 ? {} : { commands: unique(commands.map((argv) => argv.join(' '))) }),
      ...(hosts.length === 0 ? {} : { hosts: unique(hosts).map(literalGlob) }),
      decision,
      reason,
    },
  };
}

/** A glob that matches exactly `text`: every character picomatch reads as special is escaped. */
export function literalGlob(text: string): string {
  return text.replace(/[\\*?[\]{}()!+@|^$]/g, (character) => `\\${character}`);
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
