import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from '@openai/agents';
import { readAll, readLedgerFile } from '@toolgate/ledger';
import { afterAll, describe, expect, it } from 'vitest';
import { liveSetup, processOn, replaySetup, type Setup } from './test-support/clerk.js';
import { ran } from './test-support/fixtures.js';

const directory = mkdtempSync(join(tmpdir(), 'toolgate-agents-resume-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const tsx = createRequire(import.meta.url).resolve('tsx');
const script = fileURLToPath(new URL('./test-support/reject-elsewhere.ts', import.meta.url));

/** What the answering process printed: what the model was told, and how often `wire` ran there. */
interface Answered {
  output: string;
  sent: { text: string };
  wireRuns: number;
  pid: number;
}

/** Runs the answering side in a new Node process (from source, through tsx); resolves what it printed. */
function answerInNewProcess(args: string[]): Promise<Answered> {
  const child = spawn(process.execPath, ['--conditions=@toolgate/source', '--import', tsx, script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) reject(new Error(`the answering process exited ${code}: ${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as Answered);
    });
  });
}

/** Asks in this process and saves the state as JSON; rejects in a new process, from that JSON. */
async function askHereRejectElsewhere(
  file: string,
  setup: Setup,
  role: 'live' | 'replay',
  recorded?: string,
) {
  const asking = await processOn(file, setup);
  const first = await run(asking.agent, 'pay mallory', asking.gated.runOptions);
  expect(first.interruptions).toHaveLength(1);
  const stateFile = `${file}.state.json`;
  writeFileSync(stateFile, first.state.toString());
  await asking.store.close();
  return answerInNewProcess([role, file, stateFile, ...(recorded === undefined ? [] : [recorded])]);
}

describe('an Agents run serialised to JSON, resumed in a new process, and rejected', () => {
  it('records the ask as it is put, the rejection with the call and its arguments, and a replay writes the same bytes', async () => {
    const file = join(directory, 'live.jsonl');
    const before = ran.wire;
    const live = await askHereRejectElsewhere(file, liveSetup(), 'live');
    expect(live.pid).not.toBe(process.pid);
    expect(ran.wire).toBe(before);
    expect(live.wireRuns).toBe(0);
    expect(live.output).toBe('not sent');
    const events = await readAll(readLedgerFile(file));
    expect(events.map((event) => event.kind)).toEqual([
      'policy.asked',
      'tool.called',
      'policy.decided',
      'tool.returned',
    ]);
    expect(events[0]?.payload).toMatchObject({
      askId: 'c1',
      askedOf: 'alice',
      tool: 'wire',
      verdict: { decision: 'ask' },
    });
    expect(events[1]?.payload).toMatchObject({ tool: 'wire', parameters: { to: 'mallory', amount: 500 } });
    expect(events[2]?.payload).toMatchObject({
      verdict: { decision: 'ask' },
      decision: 'deny',
      reason: 'money leaves; not approved by alice',
    });
    expect(JSON.parse(live.sent.text)).toMatchObject({ code: 'PERMISSION_DENIED' });

    const copy = join(directory, 'replayed.jsonl');
    const { setup, replay } = await replaySetup(file);
    const replayed = await askHereRejectElsewhere(copy, setup, 'replay', file);
    expect(replay.divergences).toEqual([]);
    expect({ ...replayed, pid: 0 }).toEqual({ ...live, pid: 0 });
    expect(readFileSync(copy, 'utf8')).toBe(readFileSync(file, 'utf8'));
    // two new Node processes load Agents, core and the ledger from source: slow on a busy machine
  }, 240_000);
});
