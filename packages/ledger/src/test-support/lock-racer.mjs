// A contender for the lock race tests, driven over stdin one command a line: `open PATH` tries to
// open the ledger for writing (and appends one record naming this pid when it wins), answering
// `won PATH` or `lost PATH CODE`; `close` closes what it holds and answers `closed`. Runs the built
// package.
import { createInterface } from 'node:readline';
import { FileStore } from '../../dist/index.js';

let held;
for await (const line of createInterface({ input: process.stdin })) {
  const [command, path] = line.split(' ');
  if (command === 'open') {
    try {
      const store = await FileStore.open(path, { durability: 'always' });
      held = store;
      await store.append({
        runId: 'race',
        kind: 'run.started',
        actor: 'racer',
        payload: { pid: process.pid },
      });
      process.stdout.write(`won ${path}\n`);
    } catch (error) {
      process.stdout.write(`lost ${path} ${error.code}\n`);
    }
  } else if (command === 'close') {
    await held?.close();
    held = undefined;
    process.stdout.write('closed\n');
  }
}
