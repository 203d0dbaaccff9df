// A writer process for the fault tests: `append` appends forever in `always` mode, printing each
// seq once its append has resolved; `hold` opens the ledger and waits. Runs the built package.
import { FileStore } from '../../dist/index.js';

const [path, mode] = process.argv.slice(2);
try {
  const store = await FileStore.open(path, { durability: 'always' });
  process.stdout.write(`open ${store.head().seq}\n`);
  if (mode === 'hold') setInterval(() => {}, 1000);
  else {
    for (let n = store.head().seq; ; n++) {
      const payload = { n, pad: 'x'.repeat((n * 37) % 400) };
      await store.append({ id: `e-${n}`, runId: 'crash', kind: 'tool.called', actor: 'child', payload });
      process.stdout.write(`${n}\n`);
    }
  }
} catch (error) {
  process.stderr.write(`${error.code}: ${error.message}\n`);
  process.exit(3);
}
