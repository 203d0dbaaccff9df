// Run with --expose-gc. Attaches the built MCPResolver to a shifty server that lists `count` new
// names on every listing, refreshes it `refreshes` times, and prints the heap (after gc) at the
// start and the end, as one JSON line: { first, last, served, refreshes }.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MCPResolver } from '@toolgate/mcp-client';

const [count, refreshes] = process.argv.slice(2).map(Number);
const here = dirname(fileURLToPath(import.meta.url));
const resolver = await MCPResolver.connect([
  {
    name: 'generator',
    command: process.execPath,
    args: [join(here, 'shifty.mjs'), JSON.stringify({ generate: { count } })],
    timeoutMs: 120_000,
    // It lists `count` tools at once on purpose; the default cap (1,000) would refuse the list.
    limits: { maxTools: count + 10 },
  },
]);
const heap = () => {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
};
let listing = 1;
const refresh = async () => {
  await resolver.call('control', { notify: true });
  await resolver.settled();
  listing += 1;
  if (!(await resolver.has(`g${listing}_0`)) || (await resolver.has(`g${listing - 1}_0`))) {
    throw new Error(`refresh ${listing} was not applied`);
  }
};
for (let index = 0; index < 10; index++) await refresh();
const first = heap();
for (let index = 10; index < refreshes; index++) await refresh();
const last = heap();
const served = (await Promise.all([0, count - 1].map((index) => resolver.has(`g${listing}_${index}`)))).every(
  Boolean,
);
await resolver.close();
process.stdout.write(`${JSON.stringify({ first, last, served, refreshes })}\n`);
