import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { ToolgateError } from '@toolgate/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEnvironment } from '../local-environment.js';
import { MemoryEnvironment } from '../memory/memory-environment.js';
import { makeWorld, type TempWorld } from '../testing/index.js';
import { isInside } from './path-rules.js';

let world: TempWorld;
beforeAll(() => {
  world = makeWorld();
});
afterAll(() => world.cleanup());

const segment = fc.constantFrom(
  '..',
  '.',
  '',
  'src',
  'docs',
  'x',
  'ws',
  'ws_evil',
  'outside',
  'link-dir-out',
  'link-file-out',
  'dangling-out',
  'link-file-in',
  'loop-a',
  'self',
  '%2e%2e',
  '...',
  '..\\..',
);
const generatedPath = fc
  .tuple(fc.constantFrom('', '/', 'ROOT/', 'BASE/'), fc.array(segment, { minLength: 1, maxLength: 8 }))
  .map(([prefix, parts]) => `${prefix}${parts.join('/')}`);

const allowedRefusals = new Set(['PATH_OUTSIDE_ROOT', 'INVALID_PATH', 'NOT_FOUND']);

function snapshot(directory: string): string {
  return readdirSync(directory)
    .sort()
    .map((name) => `${name}=${readFileSync(join(directory, name), 'utf8')}`)
    .join('|');
}

describe('no generated path resolves outside the root', () => {
  it('LocalEnvironment: every path is either refused or resolves, through symlinks, inside the root', async () => {
    const environment = new LocalEnvironment({ root: world.root });
    const outsideBefore = snapshot(world.outside);
    const siblingBefore = snapshot(world.sibling);
    await fc.assert(
      fc.asyncProperty(generatedPath, fc.boolean(), async (raw, write) => {
        const path = raw.replace('ROOT', world.root).replace('BASE', world.base);
        try {
          const resolved = await environment.resolvePath(path);
          expect(resolved.inside).toBe(isInside(world.root, resolved.absolute));
          if (write) {
            const written = await environment.writeFile(path, 'generated');
            const real = realpathSync(join(world.root, written.path));
            expect(isInside(world.root, real)).toBe(true);
          } else {
            const file = await environment.readFile(path);
            expect(file.content).not.toMatch(/secret/);
          }
          expect(resolved.inside).toBe(true);
        } catch (error) {
          if (!ToolgateError.is(error)) throw error;
          expect(allowedRefusals).toContain(error.code);
        }
      }),
      { numRuns: 300, seed: 4 },
    );
    expect(snapshot(world.outside)).toBe(outsideBefore);
    expect(snapshot(world.sibling)).toBe(siblingBefore);
  });

  it('MemoryEnvironment: a path is inside exactly when it resolves under the root, and only then is used', async () => {
    const environment = new MemoryEnvironment({ root: '/base/ws', files: { src: { 'a.ts': 'a' } } });
    await fc.assert(
      fc.asyncProperty(generatedPath, async (raw) => {
        const path = raw.replace('ROOT', '/base/ws').replace('BASE', '/base');
        const resolved = await environment.resolvePath(path);
        expect(resolved.inside).toBe(isInside('/base/ws', resolved.absolute, '/'));
        try {
          await environment.writeFile(path, 'generated');
          expect(resolved.inside).toBe(true);
        } catch (error) {
          if (!ToolgateError.is(error)) throw error;
          expect(allowedRefusals).toContain(error.code);
        }
        for (const written of Object.keys(environment.snapshot())) {
          expect(written === '..' || written.startsWith('../')).toBe(false);
          expect(written.startsWith('/')).toBe(false);
        }
      }),
      { numRuns: 300, seed: 4 },
    );
  });
});
