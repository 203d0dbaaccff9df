import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parsePolicyText } from './policy-document.js';
import { parseJsonPolicy } from './policy-json.js';

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
});
