// A writer process for always-write.fault.test.ts: node write-always-rules.mjs FILE NAME COUNT.
// Loads the built package, says "ready", waits for "go" on stdin, then writes COUNT "allow always"
// rules (NAME's reads of NAME-0.txt, NAME-1.txt, …) to FILE, as a gateway answering would.
import { loadPolicyFiles, writeAlwaysRule } from '../../dist/index.js';

const [file, name, count] = process.argv.slice(2);
const { policy } = loadPolicyFiles([file]);
process.stdout.write('ready\n');
process.stdin.once('data', async () => {
  for (let index = 0; index < Number(count); index++) {
    const path = `${name}-${index}.txt`;
    const done = await writeAlwaysRule({
      file,
      policy,
      request: { agent: name, tool: 'read_file', parameters: { path }, subject: { paths: [path] } },
      decision: 'allow',
      reason: `${name} answered always`,
    });
    if (!done.written) {
      process.stderr.write(`${name}: ${done.why}\n`);
      process.exit(1);
    }
  }
  process.exit(0);
});
