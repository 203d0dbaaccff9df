// One writer process of the PostgreSQL bench: appends to a PostgresStore (a ledger shared with the
// other writers) or to a FileStore (a file of its own: a file has one writer at a time), keeping
// IN_FLIGHT appends outstanding, from when `go` arrives on stdin for MS milliseconds; prints the count.
import { createInterface } from 'node:readline';
import { FileStore } from '@toolgate/ledger';
import { PostgresStore } from '@toolgate/ledger-postgres';
import { lockPerAppend, roundTripOnly } from '@toolgate/ledger-postgres/testing';

// KIND: postgres (PostgresStore, group commit), postgres-locked (the lock-per-append path of before
// group commit, on a ledger a PostgresStore created), postgres-round-trip (a SELECT 1 an append,
// nothing stored: the floor of one round trip), file (FileStore).
const [kind, location, name, ms, inFlight] = process.argv.slice(2);
const store =
  kind === 'postgres'
    ? await PostgresStore.open(location)
    : kind === 'postgres-locked'
      ? lockPerAppend(location)
      : kind === 'postgres-round-trip'
        ? roundTripOnly(location)
        : await FileStore.open(location);
const payload = {
  callId: 'call',
  tool: 'oracle',
  parameters: { seed: 'moss on the north stones', depth: 3 },
};
process.stdout.write('ready\n');
await new Promise((resolve) => createInterface({ input: process.stdin }).once('line', resolve));
const cpu = process.cpuUsage();
const end = performance.now() + Number(ms);
let count = 0;
await Promise.all(
  Array.from({ length: Number(inFlight) }, async () => {
    while (performance.now() < end) {
      await store.append({ runId: name, kind: 'tool.called', actor: name, payload });
      count++;
    }
  }),
);
const used = process.cpuUsage(cpu);
await store.close();
process.stdout.write(`${count} ${(used.user + used.system) / 1000}\n`, () => process.exit(0));
