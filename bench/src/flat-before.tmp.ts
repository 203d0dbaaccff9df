import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { FileStore, steppingClock } from '@toolgate/ledger';
const parameters = { seed: 'moss on the north stones', depth: 3 };
async function writeLedger(path: string, events: number) {
  const store = await FileStore.open(path, { durability: 'none', clock: steppingClock() });
  const kinds = ['tool.called', 'policy.decided', 'tool.returned'];
  for (let seq = 0; seq < events; seq++) await store.append({ runId: 'bench', turn: Math.floor(seq / 3), kind: kinds[seq % 3]!, actor: 'fortune-teller', payload: { callId: `call-${Math.floor(seq / 3)}`, tool: 'oracle', parameters } });
  await store.close();
}
await writeLedger('/tmp/flat-open-small.jsonl', 10_000);
await writeLedger('/tmp/flat-open-large.jsonl', 1_000_000);
const child = (dist: string, path: string) => new Promise<string>((resolve) => {
  const script = `const { FileStore } = await import('${dist}/index.js'); const t = performance.now(); const s = await FileStore.open('${path}', { durability: 'none' }); const ms = performance.now() - t; await s.close(); console.log(ms.toFixed(1), (process.resourceUsage().maxRSS / 1024).toFixed(1));`;
  const c = spawn(process.execPath, ['--input-type=module', '-e', script]); let out = ''; c.stdout.on('data', (d) => (out += d)); c.stderr.on('data', (d) => (out += d)); c.on('close', () => resolve(out.trim()));
});
const root = '/work/wt/flat/packages/ledger';
for (let round = 0; round < 3; round++) for (const dist of ['dist-old', 'dist']) for (const p of ['small', 'large']) console.log(dist, p, await child(`${root}/${dist}`, `/tmp/flat-open-${p}.jsonl`));
