import { builtinTools } from '@toolgate/builtins';
import { parsePolicyText, ToolGate, ToolRegistry } from '@toolgate/core';
import { LocalEnvironment } from '@toolgate/environment';
import { FileStore, LedgerRecorder, verifyLedgerFile } from '@toolgate/ledger';

// Every effect goes through one confined environment; the built-in tools are typed tools over it.
const environment = new LocalEnvironment({ root: process.cwd() });
const registry = new ToolRegistry();
for (const tool of builtinTools(environment)) registry.register(tool);

// Policy sees resolved paths and parsed commands, so `src/../.env` never matches `src/**`.
const policy = parsePolicyText(`
default: deny
rules:
  - { tools: [read_file, list_dir, glob, search_files], paths: ["src/**", "."], decision: allow }
  - { tools: [shell], commands: ["npm test"], decision: ask }
`);

const store = await FileStore.open('agent.ledger.jsonl');
const gate = new ToolGate(registry, {
  policy,
  recorder: new LedgerRecorder(store, { runId: 'run-1' }),
  approver: async ({ tool, parameters }) => tool === 'shell' && parameters.command === 'npm test',
});

// The agent holds a handle bound to its grant, never a tool.
const coder = gate.forAgent({ name: 'coder', tools: ['read_file', 'glob', 'shell'] });
console.log(await coder.availableToolsBlock()); // the prompt block for exactly these three tools
console.log(await coder.callTool('glob', { pattern: 'src/*.ts' })); // { isError: false, output: … }
console.log(await coder.callTool('read_file', { path: 'src/../.env' })); // isError: permission denied
console.log(await coder.callTool('write_file', { path: 'x', content: '' })); // isError: not granted

await store.close();
console.log(await verifyLedgerFile('agent.ledger.jsonl')); // { ok: true, count: 8, … }
