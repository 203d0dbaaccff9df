import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parsePolicyText } from './policy-document.js';
import { parseJsonPolicy } from './policy-json.js';
import { random } from './test-support/policy-cases.js';

describe('a policy written as JSON', () => {
  it('reads as the YAML parser reads the same text', () => {
    const texts = [
      '{"rules":[{"tools":["shell"],"decision":"deny"}]}',
      '  \n{ "default": "ask", "rules": [ { "paths": ["src/**", "a\\"b"], "decision": "allow", "reason": "\\u00e9 \\n" } ] }\n',
      '{"rules":[],"x":{"y":[1,2.5,-3e2,true,false,null,{"rules":"nested keys are their own object"}]}}',
      '{"a\\\\":1,"a":2}',
    ];
    for (const text of texts) expect(parseJsonPolicy(text)).toEqual(parseYaml(text));
  });

  it('leaves to the YAML parser what is not a JSON object, or names a key twice', () => {
    expect(parseJsonPolicy('rules: []')).toBeUndefined();
    expect(parseJsonPolicy('["rules"]')).toBeUndefined();
    expect(parseJsonPolicy('{"rules": [], }')).toBeUndefined();
    expect(parseJsonPolicy('{"rules":[{"decision":"deny","decision":"allow"}]}')).toBeUndefined();
    expect(parseJsonPolicy('{"rules":[{"decision":"deny","\\u0064ecision":"allow"}]}')).toBeUndefined();
    expect(parseJsonPolicy('{"rules":[{"decision":"deny"},{"decision":"allow"}]}')).toEqual({
      rules: [{ decision: 'deny' }, { decision: 'allow' }],
    });
  });

  it('reads a string that looks like a key as the YAML parser does', () => {
    const text = '{"rules":[{"decision":"deny","reason":"say \\"no\\": ever"}]}';
    expect(parseJsonPolicy(text)).toBeUndefined();
    expect(parsePolicyText(text).decide({ agent: 'a', tool: 't', parameters: {}, subject: {} })).toEqual({
      decision: 'deny',
      rule: 0,
      reason: 'say "no": ever',
    });
  });

  it('refuses a rule that names its decision twice, as the YAML parser does, with the line', () => {
    const text = '{"rules":[\n{"tools":["shell"],"decision":"deny","decision":"allow"}]}';
    expect(() => parsePolicyText(text, 'p.json')).toThrow(
      /^p\.json is not valid JSON or YAML: .*unique.*line 2/s,
    );
  });

  it('takes the parse exactly when the text writes no more keys than it holds, over generated texts', () => {
    const generate = random(72);
    const spaces = ['', ' ', '\t', '\n', '\r', '\n  '];
    const strings = ['a', 'rules', ':', '":', '" :', '\\', '\\"', ' ', 'é', '{', '"a":1'];
    const space = () => generate.pick(spaces);
    const text = (depth: number): string => {
      const roll = generate.next();
      if (depth > 2 || roll < 0.3) return JSON.stringify(generate.pick(strings));
      if (roll < 0.4) return generate.pick(['1', 'true', 'null', '-2.5e1']);
      if (roll < 0.55)
        return `[${space()}${generate
          .some([0, 1, 2], 3)
          .map(() => text(depth + 1))
          .join(`${space()},${space()}`)}${space()}]`;
      // Keys drawn from few names, so some objects write one twice.
      const members = generate
        .some(['a', 'b', 'rules', ':', '"'], 4)
        .map((key) => `${JSON.stringify(key)}${space()}:${space()}${text(depth + 1)}`);
      return `{${space()}${members.join(`${space()},${space()}`)}${space()}}`;
    };
    const held = (value: unknown): number =>
      typeof value !== 'object' || value === null
        ? 0
        : Array.isArray(value)
          ? value.reduce((sum: number, item) => sum + held(item), 0)
          : Object.values(value).reduce((sum: number, item) => sum + 1 + held(item), 0);
    let taken = 0;
    for (let round = 0; round < 3000; round++) {
      const written = `${space()}{${space()}"rules"${space()}:${space()}${text(0)}${space()}}`;
      const data = JSON.parse(written);
      const keys = written.match(/"[ \t\n\r]*:/g)?.length ?? 0;
      const parsed = parseJsonPolicy(written);
      if (held(data) === keys) {
        expect(parsed, written).toEqual(data);
        taken++;
      } else expect(parsed, written).toBeUndefined();
    }
    expect(taken).toBeGreaterThan(500);
  });
});
