import { describe, expect, it } from 'vitest';
import { compileRule } from './policy-compile.js';
import { hostKeys, pathKeys } from './policy-keys.js';
import { ToolRules } from './policy-tool-rules.js';
import { random } from './test-support/policy-cases.js';

/** The leading plain segments of a path glob, as the index first worked them out: split, then a regex per segment. */
function pathKeysBySplit(glob: string): string[] {
  const segments = glob.split('/');
  const keys: string[] = [];
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!;
    const root = index === 0 && segment === '' && segments.length > 1;
    if (!root && (!/^[\w.~-]+$/.test(segment) || segment === '.' || segment === '..')) break;
    keys.push(segment);
  }
  return keys;
}

const parts = [
  'src',
  'a.ts',
  '.',
  '..',
  '',
  '*',
  '**',
  '~',
  '-x_',
  'x y',
  'a\\b',
  '{a,b}',
  'A9',
  '.env',
  'é',
  '[ab]',
];

describe('the literal keys a glob is filed under', () => {
  it('are the leading plain segments of a path glob, as split and matched segment by segment', () => {
    const generate = random(27);
    const globs = ['', '/', '//', '/etc/*', 'src/**', 'a//b', './src', 'src/./a', 'src/', '/src'];
    for (let round = 0; round < 5000; round++)
      globs.push((generate.next() < 0.2 ? '/' : '') + generate.some(parts, 5).join('/'));
    for (const glob of globs) expect(pathKeys(glob), JSON.stringify(glob)).toEqual(pathKeysBySplit(glob));
  });

  it('are the trailing plain labels of a host glob, last first', () => {
    expect(hostKeys('*.Example.COM')).toEqual(['com', 'example']);
    expect(hostKeys('api.example.com')).toEqual(['com', 'example', 'api']);
    expect(hostKeys('example.*')).toEqual([]);
  });
});

describe('the rules of one tool', () => {
  it('judges by a rule added after its index was first built', () => {
    const rules = new ToolRules();
    const request = { agent: 'a', tool: 'shell', parameters: {}, subject: {} };
    const allow = compileRule({ tools: ['shell'], decision: 'allow' }, 0);
    const deny = compileRule({ tools: ['shell'], decision: 'deny' }, 1);
    rules.add(allow);
    expect(rules.judge(request, { kind: 'none' }, undefined)).toBe(allow);
    rules.add(deny);
    expect(rules.judge(request, { kind: 'none' }, undefined)).toBe(deny);
  });
});
