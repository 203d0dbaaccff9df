import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import type { PolicyRequest, PolicyRule } from './policy.js';
import { PolicyIndex } from './policy-index.js';
import { type CompiledRule, commandTokens, judges, type Resource, strictness } from './policy-rules.js';
import {
  agents,
  clients,
  methods,
  random,
  resourceFrom,
  ruleFrom,
  tools,
} from './test-support/policy-cases.js';

/** The rules compiled as before they were indexed: picomatch over each rule's patterns, eagerly. */
function compiledEagerly(rules: readonly PolicyRule[]): CompiledRule[] {
  return rules.map((rule, index) => ({
    index,
    rule,
    tool: rule.tools ? picomatch([...rule.tools], { dot: true }) : () => true,
    constrained: rule.paths !== undefined || rule.commands !== undefined || rule.hosts !== undefined,
    ...(rule.paths ? { path: picomatch([...rule.paths], { dot: true }) } : {}),
    ...(rule.hosts
      ? {
          host: picomatch(
            rule.hosts.map((host) => host.toLowerCase()),
            { dot: true },
          ),
        }
      : {}),
    ...(rule.commands ? { commands: rule.commands.map(commandTokens) } : {}),
  }));
}

/** True when the rule's conditions on who calls and on arguments hold, by picomatch and RegExp directly. */
function holds(rule: PolicyRule, request: PolicyRequest): boolean {
  if (rule.agents && !picomatch([...rule.agents], { dot: true })(request.agentPath ?? request.agent))
    return false;
  if (
    rule.clients &&
    (request.client === undefined || !picomatch([...rule.clients], { dot: true })(request.client))
  )
    return false;
  for (const [pointer, predicate] of Object.entries(rule.where ?? {})) {
    const value = request.parameters[pointer.slice(1)];
    const spelled = typeof predicate === 'string' ? { glob: predicate } : predicate;
    if (typeof value !== 'string') {
      if (spelled.missing !== 'matches') return false;
    } else if ('regex' in spelled ? !new RegExp(spelled.regex).test(value) : !picomatch(spelled.glob)(value))
      return false;
  }
  return true;
}

/** The judgement a scan of every rule gives (the policy before it was indexed). */
function scanned(compiledRules: readonly CompiledRule[], request: PolicyRequest, resource: Resource) {
  let decided: number | undefined;
  let skipped = false;
  for (const compiled of compiledRules) {
    const { index, rule } = compiled;
    if (!compiled.tool(request.tool) || !holds(rule, request)) continue;
    if (!judges(compiled, resource)) {
      skipped ||= resource.kind === 'unknown';
      continue;
    }
    if (
      decided === undefined ||
      strictness[rule.decision] > strictness[compiledRules[decided]!.rule.decision]
    )
      decided = index;
  }
  return { decided, skipped };
}

describe('the policy index against a scan of every rule', () => {
  it('picks the same deciding rule, and sets the same rules aside, for any rules and any resource', () => {
    for (let seed = 1; seed <= 1000; seed++) {
      const generate = random(seed);
      const rules = Array.from({ length: 1 + Math.floor(generate.next() * 14) }, () => ruleFrom(generate));
      // Looked up however few the rules (`scanBelow` 0), and as a policy of that size is by default.
      const indexes = [new PolicyIndex(rules, 0), new PolicyIndex(rules)];
      const eager = compiledEagerly(rules);
      for (let call = 0; call < 12; call++) {
        const client = generate.pick(clients);
        const method = generate.pick(methods);
        const request: PolicyRequest = {
          agent: generate.pick(agents),
          ...(generate.next() < 0.3
            ? { agentPath: generate.pick(['lead/critic', 'lead/a/b', 'other/lead']) }
            : {}),
          tool: generate.pick(tools),
          parameters: method === undefined ? {} : { method },
          ...(client === undefined ? {} : { client }),
        };
        const resource = resourceFrom(generate);
        const expected = scanned(eager, request, resource);
        for (const index of indexes) {
          const judged = index.judge(request, resource);
          const found = { decided: judged.decided?.index, skipped: judged.skipped };
          if (found.decided !== expected.decided || found.skipped !== expected.skipped)
            expect({ seed, call, request, resource, rules, found }).toEqual({
              seed,
              call,
              request,
              resource,
              rules,
              found: expected,
            });
        }
      }
    }
  });

  it('says no path can change a verdict only when every path is judged as a call touching nothing', () => {
    let without = 0;
    let with_ = 0;
    let changed = 0;
    for (let seed = 1; seed <= 1000; seed++) {
      const generate = random(seed);
      const rules = Array.from({ length: 1 + Math.floor(generate.next() * 14) }, () => ruleFrom(generate));
      const index = new PolicyIndex(rules);
      for (let call = 0; call < 12; call++) {
        const request: PolicyRequest = {
          agent: generate.pick(agents),
          tool: generate.pick(tools),
          parameters: {},
        };
        const nothing = index.judge(request, { kind: 'none' }).decided?.index;
        const paths = Array.from({ length: 6 }, () => resourceFrom(generate)).filter(
          (resource) => resource.kind === 'path',
        );
        const differs = paths.some((path) => index.judge(request, path).decided?.index !== nothing);
        if (index.judgesPaths(request.tool)) {
          with_++;
          if (differs) changed++;
        } else {
          without++;
          // a scan of every rule agrees that none of them with paths names this tool
          expect(compiledEagerly(rules).some((rule) => rule.path && rule.tool(request.tool))).toBe(false);
          if (differs) expect({ seed, call, request, rules }).toBe('judged like a call that touches nothing');
        }
      }
    }
    // both answers were exercised, and paths did change verdicts where a rule with paths was found
    expect(without).toBeGreaterThan(100);
    expect(with_).toBeGreaterThan(100);
    expect(changed).toBeGreaterThan(10);
  });

  it('finds the rule among 10,000 that a scan finds, for tool, path, command and host rules', () => {
    const rules: PolicyRule[] = Array.from({ length: 10_000 }, (_, index) => {
      switch (index % 4) {
        case 0:
          return { tools: [`tool_${index}`], decision: 'allow' };
        case 1:
          return { tools: ['read_*'], paths: [`packages/p${index}/**`], decision: 'ask' };
        case 2:
          return { tools: ['shell'], commands: [`program_${index} test *`], decision: 'allow' };
        default:
          return { hosts: [`*.host${index}.example.com`], decision: 'deny' };
      }
    });
    const index = new PolicyIndex(rules);
    const eager = compiledEagerly(rules);
    const cases: [string, Resource][] = [
      ['tool_9996', { kind: 'none' }],
      ['read_file', { kind: 'path', value: 'packages/p9997/src/a.ts' }],
      ['shell', { kind: 'command', value: ['/usr/local/bin/program_9998', 'test', 'x'] }],
      ['fetch', { kind: 'host', value: 'API.host9999.example.com' }],
      ['read_file', { kind: 'path', value: 'packages/p9997' }],
      ['read_file', { kind: 'unknown' }],
    ];
    const call = (tool: string): PolicyRequest => ({ agent: 'a', tool, parameters: {} });
    for (const [tool, resource] of cases) {
      const judged = index.judge(call(tool), resource);
      expect({ decided: judged.decided?.index, skipped: judged.skipped }).toEqual(
        scanned(eager, call(tool), resource),
      );
    }
    const path = { kind: 'path', value: 'packages/p9997/src/a.ts' } as const;
    expect(index.judge(call('read_file'), path).decided?.index).toBe(9997);
  });
});
