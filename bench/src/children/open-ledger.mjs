// Opens a ledger file for appending with the FileStore (as a gateway or an agent does at start),
// appends one event and closes it; prints how long the open took, in ms. Run with peak-rss.mjs
// preloaded to read its peak resident set.
import { FileStore } from '@toolgate/ledger';

const [path, check] = process.argv.slice(2);
const started = performance.now();
const store = await FileStore.open(path, { durability: 'none', ...(check ? { check } : {}) });
const milliseconds = performance.now() - started;
await store.append({ runId: 'reopened', kind: 'run.started', actor: 'system' });
await store.close();
process.stdout.write(`${milliseconds}\n`);
