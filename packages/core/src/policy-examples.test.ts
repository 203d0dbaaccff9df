import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePolicyText } from './policy-document.js';

/** Ten rules a team might really write, each proving itself with examples as Codex's prefix_rule does. */
const realRules = `default: deny
rules:
  - tools: [shell]
    commands: ['npm test', 'npm test *', 'npm run lint']
    decision: allow
    examples: { match: ['npm test', 'npm test -- --watch', 'npm run lint'], not_match: ['npm publish', 'npm run lint --fix'] }
  - tools: [shell]
    commands: ['git status *', 'git diff *', 'git log *']
    decision: allow
    examples: { match: ['git status', 'git diff --stat', 'git log -n 3'], not_match: ['git push origin main'] }
  - tools: [shell]
    commands: ['git push *']
    decision: ask
    examples: { match: ['git push', 'git push origin main'], not_match: ['git pull'] }
  - tools: [shell]
    commands: ['rm -rf *', 'sudo *']
    decision: deny
    reason: no recursive deletes, no sudo
    examples: { match: ['rm -rf /', '/bin/rm -rf build', 'sudo apt-get install x'], not_match: ['rm build.log'] }
  - tools: [read_file, list_dir, glob, search_files]
    paths: ['src/**', 'test/**', 'README.md']
    decision: allow
    examples:
      match: [{ tool: read_file, subject: { paths: [src/a.ts] } }, { tool: glob, subject: { paths: [README.md] } }]
      not_match: [{ tool: read_file, subject: { paths: [etc/passwd] } }, { tool: write_file, subject: { paths: [src/a.ts] } }]
  - tools: [write_file]
    paths: ['src/**']
    decision: ask
    examples: { match: [{ tool: write_file, subject: { paths: [src/new.ts] } }], not_match: [{ tool: write_file, subject: { paths: [dist/a.js] } }] }
  - paths: ['**/.env', '.env', '**/*.pem']
    decision: deny
    reason: secrets stay where they are
    examples:
      match: [{ tool: read_file, subject: { paths: [.env] } }, { tool: write_file, subject: { paths: [app/keys/server.pem] } }]
      not_match: [{ tool: read_file, subject: { paths: [src/env.ts] } }]
  - tools: [fetch]
    hosts: ['api.github.com', '*.npmjs.org']
    decision: allow
    examples:
      match: [{ tool: fetch, subject: { hosts: [registry.npmjs.org] } }]
      not_match: [{ tool: fetch, subject: { hosts: [npmjs.org.evil.com] } }]
  - tools: [fetch]
    where: { /method: { regex: '^(POST|PUT|PATCH|DELETE)$' } }
    decision: ask
    examples:
      match: [{ tool: fetch, parameters: { method: POST } }]
      not_match: [{ tool: fetch, parameters: { method: GET } }, { tool: fetch, parameters: {} }]
  - tools: ['mcp__*']
    agents: ['lead/*']
    decision: deny
    reason: subagents do not reach MCP servers
    examples:
      match: [{ tool: mcp__fs__read, agent: lead/critic }]
      not_match: [{ tool: mcp__fs__read, agent: lead }, { tool: read_file, agent: lead/critic }]
`;

describe('rules with examples', () => {
  it('loads ten real rules whose examples all hold, and decides as they say', () => {
    const policy = parsePolicyText(realRules, 'team.yaml');
    expect(policy.document.rules).toHaveLength(10);
    const shell = (...commands: string[][]) =>
      policy.decide({ agent: 'a', tool: 'shell', parameters: {}, subject: { commands } }).decision;
    expect(shell(['npm', 'test'])).toBe('allow');
    expect(shell(['git', 'push'])).toBe('ask');
    expect(shell(['npm', 'test'], ['sudo', 'reboot'])).toBe('deny');
  });

  it('refuses a rule whose match example it does not judge, naming the rule, the example and its line', () => {
    const text = `rules:
  - { tools: [shell], commands: ['npm test'], decision: allow }
  - tools: [shell]
    commands: ['git status']
    decision: allow
    examples: { match: ['git status --short'] }
`;
    expect(() => parsePolicyText(text, 'p.yaml')).toThrow(
      'p.yaml is not a valid policy: rules[1].examples.match[0]: the rule does not judge "git status --short", ' +
        'which it says it should; fix the rule or the example (the rule is at line 3 of p.yaml)',
    );
  });

  it('refuses a rule that judges its not_match example', () => {
    const text =
      "rules:\n  - { paths: ['src/*'], decision: deny, examples: { not_match: [{ tool: t, subject: { paths: [src/a] } }] } }\n";
    expect(() => parsePolicyText(text, 'p.yaml')).toThrow(
      /rules\[0\]\.examples\.not_match\[0\]: the rule judges/,
    );
  });

  it('refuses a command line as the example of a rule that is not on commands', () => {
    const text = "rules:\n  - { tools: [shell], decision: allow, examples: { match: ['ls'] } }\n";
    expect(() => parsePolicyText(text, 'p.yaml')).toThrow(
      /a command line is an example only for a rule on commands; write the call as \{ tool, subject \}/,
    );
  });
});

describe('README: rules that prove themselves', () => {
  it('loads the example, and refuses it once an example is wrong', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('- **Rules that prove themselves: `examples`.**'));
    const example = /```yaml\n([\s\S]*?)```/.exec(section)![1]!.replace(/^ {2}/gm, '');
    expect(parsePolicyText(example, 'README.md').document.rules).toHaveLength(2);
    expect(() =>
      parsePolicyText(example.replace("not_match: ['git pull']", "not_match: ['git push -f']"), 'README.md'),
    ).toThrow(/rules\[0\]\.examples\.not_match\[0\]: the rule judges "git push -f"/);
  });
});
