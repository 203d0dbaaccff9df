import { describe, expect, it } from 'vitest';
import { withholdFromOutput } from './pattern-output.js';

const secret = (path: string) => path === 'a:1: b' || path.startsWith('secrets/');

describe('withholdFromOutput', () => {
  it('withholds a search line when any reading of its prefix names a withheld path', () => {
    const output = {
      matches: ['a:1: b:2: x', 'secrets/k:3: key', 'src/ok:4: fine'],
      totalMatches: 3,
    };
    expect(withholdFromOutput('search_files', output, secret)).toEqual({
      matches: ['src/ok:4: fine'],
      totalMatches: 1,
      withheldByPolicy: 2,
    });
  });

  it('adds to what the server already withheld, and leaves other tools alone', () => {
    const output = { paths: ['secrets/x', 'src/y'], withheldByPolicy: 1 };
    expect(withholdFromOutput('glob', output, secret)).toEqual({ paths: ['src/y'], withheldByPolicy: 2 });
    expect(withholdFromOutput('read_file', { content: 'secrets/x' }, secret)).toBeUndefined();
  });

  it('refuses an output it cannot check entry by entry (cut at a cap)', () => {
    const capped = { truncated: true, omittedChars: 10, text: '{"matches":["secrets/k:1: key' };
    expect(() => withholdFromOutput('search_files', capped, secret)).toThrow(
      expect.objectContaining({ code: 'PERMISSION_DENIED' }),
    );
  });
});
