import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const example = fileURLToPath(new URL('..', import.meta.url));

describe('the real-model example', () => {
  it('with no API key set, says so in one line and exits 0 (never failing for want of a key)', async () => {
    const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
    const { stdout, stderr } = await promisify(execFile)(
      tsx,
      ['--conditions=@toolgate/source', 'src/real-model.ts'],
      { cwd: example, env: { PATH: process.env.PATH, HOME: process.env.HOME } },
    );
    expect(stdout).toBe(
      'real-model: skipped, no OPENAI_API_KEY or ANTHROPIC_API_KEY is set (set one to run it)\n',
    );
    expect(stderr).toBe('');
  });
});
