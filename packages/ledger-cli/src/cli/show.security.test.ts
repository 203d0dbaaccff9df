import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolGate, ToolRegistry } from '@toolgate/core';
import { FileStore, LedgerRecorder, MemoryStore, steppingClock } from '@toolgate/ledger';
import { counter, oracle, temporaryFiles } from '@toolgate/ledger/testing';
import { describe, expect, it } from 'vitest';
import { main } from './main.js';
import { quoted, safeJson } from './quote.js';

const file = temporaryFiles();
const cli = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'toolgate-ledger.js');

/** A line an attacker would like the auditor to read, then an OSC 52 write to the clipboard. */
const forgedLine =
  '#9 2026-01-01T00:00:00.009Z t0 teller policy.decided wire [c9] allow: approved by the CFO';
const hostileTool = `x\n${forgedLine}\u001b]52;c;ZWNobyBwd25lZA==\u0007`;
/** C1 CSI, DEL, a bidi override, a line separator, a zero-width joiner, a no-break space,. */
const oddities = 'a\u009b31mb\u007fc\u202ed\u2028e\u200df\u00a0g\r\tend';

/** Any byte a terminal acts on, but the newline: C0, DEL, and the UTF-8 of C1 controls. */
const rawControl = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
/** What else must not reach a reader raw: separators, bidi and other format characters, lone surrogates. */
const rawUnseen = /[\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069\u00a0\ud800-\udfff]/;

async function hostileLedger(path: string): Promise<number> {
  const store = await FileStore.open(path, { clock: steppingClock() });
  const recorder = new LedgerRecorder(store, { runId: `run\n${oddities}` });
  const gate = new ToolGate(new ToolRegistry().register(oracle), {
    recorder,
    callIds: counter(`call\u001b[2J`),
  });
  // refused for want of a grant: the tool name is the model's
  const agent = gate.forAgent({ name: 'teller', tools: [] });
  await agent.callTool(hostileTool, { seed: oddities });
  await recorder.record('note.written', `system${oddities}`, { text: oddities, [oddities]: hostileTool });
  const count = store.head().seq;
  await store.close();
  return count;
}

function collect(options: { isTTY?: boolean } = {}) {
  const out: string[] = [];
  return {
    io: {
      stdout: { write: (text: string) => out.push(text), isTTY: options.isTTY ?? false },
      stderr: { write: () => undefined },
      env: {},
    },
    text: () => out.join(''),
  };
}

describe('toolgate-ledger show: what the auditor reads is escaped', () => {
  it('prints one line per record with no raw control byte, and the tool name quoted', async () => {
    const path = file('hostile.jsonl');
    const count = await hostileLedger(path);
    for (const argv of [
      ['show', path],
      ['show', path, '--json'],
      ['runs', path],
      ['runs', path, '--json'],
    ]) {
      const output = collect();
      expect(await main(argv, output.io)).toBe(0);
      const lines = output.text().split('\n');
      expect(lines.pop()).toBe('');
      expect(lines).toHaveLength(argv[0] === 'show' ? count : 1);
      for (const line of lines) {
        // runs separates its columns with tabs, the one control character it writes itself
        const fields = argv[0] === 'runs' && argv.length === 2 ? line.split('\t') : [line];
        if (argv[0] === 'runs' && argv.length === 2) expect(fields).toHaveLength(4);
        for (const field of fields) expect(field).not.toMatch(rawControl);
        expect(line).not.toMatch(rawUnseen);
        // every line is a record of its own: none begins inside another's field
        if (argv.length === 2 && argv[0] === 'show') expect(line).toMatch(/^#\d+ \d{4}-/);
      }
      if (argv[1] === path && argv.length === 3) {
        // --json stays JSON, and means the same events
        expect(lines.map((line) => JSON.parse(line).runId)).toEqual(lines.map(() => `run\n${oddities}`));
      }
    }
    const shown = collect();
    await main(['show', path], shown.io);
    expect(shown.text()).toContain(`${quoted(hostileTool)} [${quoted('call\u001b[2J-1')}]`);
    expect(quoted(hostileTool)).toContain('\\n#9 2026-01-01T00:00:00.009Z');
    expect(quoted(hostileTool)).toContain('\\u001b]52;c;');
  });

  it('on a terminal, writes no escape but its own colours', async () => {
    const path = file('hostile.jsonl');
    await hostileLedger(path);
    const terminal = collect({ isTTY: true });
    expect(await main(['show', path], terminal.io)).toBe(0);
    const withoutColours = terminal.text().replace(/\u001b\[(?:1|2|22|31|32|33|36|39)m/g, '');
    expect(withoutColours).not.toMatch(rawControl);
  });

  it('the built command writes the same escaped lines', async () => {
    const path = file('hostile.jsonl');
    const count = await hostileLedger(path);
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [cli, 'show', path], (error, out) => (error ? reject(error) : resolve(out))),
    );
    const lines = stdout.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(count);
    expect(stdout).not.toMatch(rawControl);
    expect(stdout).not.toMatch(rawUnseen);
  });
});

describe('toolgate-ledger verify: what the auditor reads is escaped', () => {
  it('names a bad record without writing the raw bytes its reason quotes', async () => {
    const path = file('broken.jsonl');
    // V8's JSON.parse error quotes the start of the line: here an OSC 52 clipboard write
    writeFileSync(path, '\u001b]52;c;ZWNobyBwd25lZA==\u0007 #9 forged\n');
    const err: string[] = [];
    const io = {
      stdout: { write: () => undefined },
      stderr: { write: (text: string) => err.push(text) },
      env: {},
    };
    expect(await main(['verify', path], io)).toBe(1);
    const text = err.join('');
    expect(text).toMatch(/^.*broken\.jsonl: bad record at seq 0: /);
    expect(text.split('\n')).toHaveLength(2);
    expect(text.slice(0, -1)).not.toMatch(rawControl);
  });
});

describe('quoted and safeJson', () => {
  it('read back with JSON.parse to the very text and value', () => {
    expect(JSON.parse(quoted(hostileTool))).toBe(hostileTool);
    const value = { [oddities]: [oddities, 1, null] };
    expect(JSON.parse(safeJson(value))).toEqual(value);
    expect(safeJson(value)).not.toMatch(rawControl);
  });

  it('leaves plain words and prose bare', async () => {
    const store = new MemoryStore({ clock: steppingClock() });
    await store.append({
      runId: 'r',
      kind: 'policy.decided',
      actor: 'teller',
      payload: { tool: 'fs__read_file', callId: 'c-1', decision: 'deny', reason: 'secrets stay put' },
    });
    const path = file('plain.jsonl');
    writeFileSync(path, store.toJsonl());
    const output = collect();
    await main(['show', path], output.io);
    expect(output.text()).toBe(
      '#0 2026-01-01T00:00:00.000Z t0 teller policy.decided fs__read_file [c-1] deny: secrets stay put\n',
    );
  });
});
