// A writer process for the PostgreSQL fault tests. Appends events with ids NAME-0, NAME-1 … to one
// ledger: COUNT of them, or until `stop` arrives on stdin when COUNT is `until-stopped`. Prints
// `ok N` after each append, `failed CODE MESSAGE` for each failed one (then tries the same id again),
// and `done N` at the end. Runs the built package.
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { PostgresStore } from '../../dist/index.js';

const [url, ledger, name, count] = process.argv.slice(2);
const limit = count === 'until-stopped' ? Number.POSITIVE_INFINITY : Number(count);
let stopped = false;
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'stop') stopped = true;
});
try {
  const store = await PostgresStore.open(url, { ledger });
  process.stdout.write('open\n');
  let n = 0;
  while (n < limit && !stopped) {
    try {
      await store.append({
        id: `${name}-${n}`,
        runId: name,
        kind: 'tool.called',
        actor: name,
        payload: { n },
      });
      n++;
      process.stdout.write(`ok ${n}\n`);
    } catch (error) {
      process.stdout.write(`failed ${error.code} ${error.message.replaceAll('\n', ' ')}\n`);
      await sleep(100);
    }
  }
  await store.close();
  process.stdout.write(`done ${n}\n`);
  process.exit(0);
} catch (error) {
  process.stderr.write(`${error.code}: ${error.message}\n`);
  process.exit(3);
}
