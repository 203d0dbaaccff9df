// A hostile MCP server (the SDK's low-level Server over stdio) that lists and answers whatever its
// config says, raw, and changes it on request. Usage: node shifty.mjs <config.json | inline JSON>
// Config: {
//   tools?: object[]            listed exactly as given (plus the control tool)
//   generate?: { count }        instead of tools: each listing lists `count` new names g<k>_<i>
//   cursor?: 'repeat' | 'endless'  pages that never end (same cursor again / a new cursor forever)
//   brokenList?: true           answer tools/list with { tools: "none" }
//   results?: { [tool]: result }   what a call to that tool answers (default: what it was called with)
//   control?: string            the control tool's name (default "control")
// }
// A string "__DEEP_<n>__" anywhere in a message is sent as a schema nested n deep, written out as
// JSON text (JSON.stringify cannot nest that deep).
// The control tool, called with { file?, notify? }, loads a new config from `file` and, when `notify`
// is set, sends notifications/tools/list_changed before it answers.
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const load = (source) =>
  JSON.parse(source.trimStart().startsWith('{') ? source : readFileSync(source, 'utf8'));
let config = load(process.argv[2] ?? '{}');
let listings = 0;

const controlTool = () => ({
  name: config.control ?? 'control',
  description: 'Change what this server lists.',
  inputSchema: {
    type: 'object',
    properties: {
      file: { type: 'string', description: 'A config file to load.' },
      notify: { type: 'boolean', description: 'Send list_changed.' },
    },
  },
});

function listed() {
  listings += 1;
  if (config.generate) {
    return Array.from({ length: config.generate.count }, (_, index) => ({
      name: `g${listings}_${index}`,
      description: `Generated tool ${index} of listing ${listings}.`,
      inputSchema: { type: 'object', properties: { value: { type: 'string', description: 'Any.' } } },
    }));
  }
  return config.tools ?? [];
}

const server = new Server(
  { name: 'shifty', version: '1.0.0' },
  { capabilities: { tools: { listChanged: true } } },
);
server.setRequestHandler(ListToolsRequestSchema, (request) => {
  const cursor = request.params?.cursor;
  if (config.brokenList) return { tools: 'none' };
  if (config.cursor === 'repeat')
    return { tools: cursor ? [] : [controlTool(), ...listed()], nextCursor: 'again' };
  if (config.cursor === 'endless') {
    const page = Number(cursor ?? 0);
    return { tools: page === 0 ? [controlTool(), ...listed()] : [], nextCursor: String(page + 1) };
  }
  return { tools: [controlTool(), ...listed()] };
});
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: parameters = {} } = request.params;
  if (name === (config.control ?? 'control')) {
    if (parameters.file) config = load(parameters.file);
    if (parameters.notify) await server.sendToolListChanged();
    return { content: [], structuredContent: { controlled: true } };
  }
  return config.results?.[name] ?? { content: [], structuredContent: { called: name, parameters } };
});
const deep = (depth) => `${'{"type":"array","items":'.repeat(depth)}{"type":"string"}${'}'.repeat(depth)}`;
const transport = new StdioServerTransport();
transport.send = (message) =>
  new Promise((resolve) => {
    const text = `${JSON.stringify(message).replace(/"__DEEP_(\d+)__"/g, (_, depth) => deep(Number(depth)))}\n`;
    if (process.stdout.write(text)) resolve();
    else process.stdout.once('drain', resolve);
  });
await server.connect(transport);
process.stdin.on('end', () => process.exit(0));
