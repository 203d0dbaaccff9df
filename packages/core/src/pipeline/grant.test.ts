import { describe, expect, it } from 'vitest';
import { CapabilityViolation, ToolgateError } from '../errors.js';
import { checkGrant, exactGrant, patternGrant } from './grant.js';

describe('grants', () => {
  it('grants exact names and nothing else', () => {
    const grant = exactGrant('teller', ['oracle']);
    expect(checkGrant(grant, 'oracle')).toBe('oracle');
    expect(() => checkGrant(grant, 'Oracle')).toThrow(CapabilityViolation);
    expect(() => checkGrant(grant, 42)).toThrow(/not granted tool "42" \(granted: "oracle"\)/);
  });

  it('grants the names glob patterns match, with * never crossing a / and braces meaning themselves', () => {
    const grant = patternGrant('desktop', ['fs__read_*', 'search__{a,b}']);
    expect(grant.allows('fs__read_file')).toBe(true);
    expect(grant.allows('fs__write_file')).toBe(false);
    expect(grant.allows('fs__read_a/b')).toBe(false);
    expect(grant.allows('search__a')).toBe(false);
    expect(() => checkGrant(grant, 'fs__write_file')).toThrow(/granted: "fs__read_\*", "search__\{a,b\}"/);
  });

  it('narrows a pattern grant to exact names it allows, and never widens', () => {
    const grant = patternGrant('desktop', ['fs__read_*']);
    const child = grant.narrow(['fs__read_file'], 'desktop/critic');
    expect(child.agent).toBe('desktop/critic');
    expect(child.allows('fs__read_file')).toBe(true);
    expect(child.allows('fs__read_dir')).toBe(false);
    const error = (() => {
      try {
        grant.narrow(['fs__write_file'], 'desktop/writer');
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(ToolgateError.is(error) && error.code).toBe('CAPABILITY_VIOLATION');
    expect(String(error)).toMatch(
      /cannot give derived agent "desktop\/writer" tools it is not granted: "fs__write_file"/,
    );
  });

  it("refuses with the grant's own refusal when it has one", () => {
    const grant = {
      ...exactGrant('client', ['a']),
      refusal: (tool: string) => new ToolgateError('UNKNOWN_TOOL', `no ${tool} here`),
    };
    expect(() => checkGrant(grant, 'b')).toThrow(/^no b here$/);
  });
});
