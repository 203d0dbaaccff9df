// Loaded with `node --expose-gc --import heap-probe.mjs dist/cli.js …` by the memory fault tests.
// On the IPC message `{ heap: true }` it collects garbage (twice, so what a finalizer frees goes
// too) and answers `{ heapUsed }`; on `{ snapshot: PATH }` it writes a heap snapshot there and
// answers `{ written: PATH }`. It changes nothing else about the gateway it is loaded into.
import { writeHeapSnapshot } from 'node:v8';

if (typeof globalThis.gc !== 'function' || typeof process.send !== 'function') {
  throw new Error('heap-probe needs --expose-gc and an IPC channel (spawn with "ipc" in stdio)');
}
process.on('message', (message) => {
  globalThis.gc();
  globalThis.gc();
  if (typeof message?.snapshot === 'string') {
    writeHeapSnapshot(message.snapshot);
    process.send({ written: message.snapshot });
  } else process.send({ heapUsed: process.memoryUsage().heapUsed });
});
// the IPC channel must not keep the gateway alive once it is told to stop
process.channel?.unref();
