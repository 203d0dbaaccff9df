import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Environment } from '../environment.js';
import { LocalEnvironment } from '../local-environment.js';
import { SandboxEnvironment } from '../sandbox/index.js';
import { giveToSandboxUser, makeWorld, type TempWorld } from '../testing/index.js';

let world: TempWorld;
beforeEach(() => {
  world = makeWorld();
});
afterEach(() => world.cleanup());

/** The pids of live (not zombie) processes whose command line contains `token`. */
function processesWith(token: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const state = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (cmdline.includes(token) && !/^\d+ \(.*\) Z/.test(state)) found.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 20_000) throw new Error(`${what} did not happen within 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const environments: [string, () => Environment][] = [
  ['LocalEnvironment', () => new LocalEnvironment({ root: world.root })],
  [
    'SandboxEnvironment',
    () => {
      giveToSandboxUser(world.root);
      return new SandboxEnvironment({ root: world.root });
    },
  ],
];

describe.each(environments)('%s exec with a signal', (_name, make) => {
  it('kills the command and everything it started when the signal aborts, and rejects CANCELLED', async () => {
    const token = `${Math.floor(Math.random() * 1e6) + 1}.25`;
    const controller = new AbortController();
    const chunks: string[] = [];
    const running = make().exec(`sleep ${token} & echo started; sleep ${token}`, {
      timeoutMs: 60_000,
      signal: controller.signal,
      onOutput: ({ text }) => chunks.push(text),
    });
    const outcome = running.then(
      () => 'resolved',
      (error: { code?: string }) => error.code,
    );
    await until(
      () => chunks.join('').includes('started') && processesWith(`sleep ${token}`).length >= 2,
      'start',
    );
    controller.abort();
    expect(await outcome).toBe('CANCELLED');
    await until(() => processesWith(`sleep ${token}`).length === 0, 'the kill');
    expect(processesWith(`sleep ${token}`)).toEqual([]);
  });

  it('runs nothing when the signal was aborted before the call', async () => {
    const outcome = await make()
      .exec('echo ran > ran.txt', { signal: AbortSignal.abort() })
      .then(
        () => 'resolved',
        (error: { code?: string }) => error.code,
      );
    expect(outcome).toBe('CANCELLED');
    expect(() => readFileSync(`${world.root}/ran.txt`)).toThrow();
  });

  it('hands output to onOutput as it comes, before the command ends, never splitting a character', async () => {
    const chunks: string[] = [];
    let ended = false;
    const running = make()
      .exec('echo first; sleep 0.3; printf "h\\303"; sleep 0.2; printf "\\251llo"', {
        onOutput: ({ stream, text }) => chunks.push(`${stream}:${text}${ended ? ' (late)' : ''}`),
      })
      .then((result) => {
        ended = true;
        return result;
      });
    const result = await running;
    // every chunk arrived before the command ended; chunks may merge on a loaded machine
    expect(chunks.every((chunk) => chunk.startsWith('stdout:') && !chunk.endsWith('(late)'))).toBe(true);
    expect(chunks.map((chunk) => chunk.slice('stdout:'.length)).join('')).toBe('first\nhéllo');
    expect(chunks.join('')).not.toContain('\ufffd');
    expect(result.stdout).toBe('first\nhéllo');
  });
});
