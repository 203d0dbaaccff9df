/**
 * What policy costs as it grows: one `RulePolicy.decide` with 10,000 rules against the same decide
 * with 1 rule, for tool, path and command rules (the call is judged by the last rule, so a scan of
 * every rule would show), and `parsePolicyText` of 10,000 rules. Targets: each decide ≤ 10× the
 * one-rule decide; the parse of the JSON text ≤ 50 ms (the YAML text's is printed beside).
 */
import { type PolicyRequest, type PolicyRule, parsePolicyText, RulePolicy } from '@toolgate/core';
import { compareLatency } from './compare.js';
import { format, quick, report, row } from './report.js';

const count = 10_000;
const last = count - 1;

/** The rules of one kind: rule `i` names tool, folder or program `i`. */
const kinds = {
  tool: (index: number): PolicyRule => ({ tools: [`tool_${index}`], decision: 'allow' }),
  path: (index: number): PolicyRule => ({
    tools: ['read_file', 'write_file'],
    paths: [`packages/package_${index}/**`],
    decision: 'allow',
  }),
  command: (index: number): PolicyRule => ({
    tools: ['shell'],
    commands: [`program_${index} test *`],
    decision: 'allow',
  }),
};

/** The call rule `index` of each kind judges. */
const requests: Record<keyof typeof kinds, (index: number) => PolicyRequest> = {
  tool: (index) => ({ agent: 'a', tool: `tool_${index}`, parameters: {}, subject: {} }),
  path: (index) => ({
    agent: 'a',
    tool: 'read_file',
    parameters: {},
    subject: { paths: [`packages/package_${index}/src/index.ts`] },
  }),
  command: (index) => ({
    agent: 'a',
    tool: 'shell',
    parameters: {},
    subject: { commands: [[`program_${index}`, 'test', '--watch']] },
  }),
};

for (const kind of Object.keys(kinds) as (keyof typeof kinds)[]) {
  const one = new RulePolicy({ rules: [kinds[kind](0)] });
  const many = new RulePolicy({ rules: Array.from({ length: count }, (_, index) => kinds[kind](index)) });
  const oneRequest = requests[kind](0);
  const manyRequest = requests[kind](last);
  if (one.decide(oneRequest).decision !== 'allow' || many.decide(manyRequest).rule !== last)
    throw new Error(`the ${kind} bench's calls are not decided by the rules it means`);
  await compareLatency({
    id: `policy-${kind}-rules`,
    title: `core: one decide with 10,000 ${kind} rules against 1`,
    what:
      `\`RulePolicy.decide\` of a call the last of 10,000 ${kind} rules allows (anchor: the same decide ` +
      'with that one rule).',
    anchor: { name: `1 ${kind} rule`, fn: () => one.decide(oneRequest) },
    subject: { name: `10,000 ${kind} rules`, fn: () => many.decide(manyRequest) },
    maxRatio: 10,
  });
}

/** 10,000 rules of every kind (tool, path and command rules in turn), as a generated allow-list reads. */
const generated = Array.from({ length: count }, (_, index) =>
  kinds[(['tool', 'path', 'command'] as const)[index % 3]!](index),
);
const texts = {
  json: JSON.stringify({ default: 'deny', rules: generated }, null, 1),
  yaml: ['default: deny', 'rules:', ...generated.map((rule) => `  - ${JSON.stringify(rule)}`)].join('\n'),
};
const rounds = quick ? 2 : 15;
/** Milliseconds of this process's CPU (user + system) so far: the parse's own work, whatever else runs. */
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const parsed = Object.fromEntries(
  Object.entries(texts).map(([format, text]) => {
    const work: number[] = [];
    const wall: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const [cpuStarted, started] = [cpu(), performance.now()];
      const policy = parsePolicyText(text, `generated.${format}`);
      wall.push(performance.now() - started);
      work.push(cpu() - cpuStarted);
      if (!(policy instanceof RulePolicy) || policy.document.rules.length !== count)
        throw new Error('the parse bench did not parse every rule');
    }
    const name = `parsePolicyText of 10,000 rules as ${format.toUpperCase()}`;
    return [format, [row(`${name}, CPU`, work, 'ms'), row(`${name}, wall clock`, wall, 'ms')]];
  }),
) as Record<keyof typeof texts, [ReturnType<typeof row>, ReturnType<typeof row>]>;
const [jsonWork] = parsed.json;
report({
  id: 'policy-parse',
  title: 'core: parsing 10,000 rules',
  what:
    '`parsePolicyText` of a policy of 10,000 rules (tool, path and command rules in turn), fresh each round: ' +
    'as JSON (judged: what a generator writes, read by `JSON.parse`, checked (zod for unusual shapes) and ' +
    "filed by tool; a tool's tries of path, host and command rules are built when a call of it is first " +
    'judged, a millisecond or two for a tool of thousands of rules, not counted here) and, printed ' +
    'beside, as YAML (the `yaml` parser alone takes most of a second for it). Judged on the CPU time the ' +
    'process spent (user + system), which the load of a shared machine does not stretch; the wall clock beside.',
  rows: [...parsed.json, ...parsed.yaml],
  figure: `${format(jsonWork.median)} ms of CPU (YAML ${format(parsed.yaml[0].median)} ms)`,
  target: '≤ 50 ms',
  met: jsonWork.median <= 50,
});
