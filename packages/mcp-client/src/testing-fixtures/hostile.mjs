// A real MCP server (the SDK's low-level Server over stdio) that attacks its client, for limit,
// flood and independence tests. Usage: node hostile.mjs [listing]
//   listing: normal (default) | huge-pages | many-pages | many-tools | dense-schemas | odd-tools | stall-refresh | slow-pages
// It writes "tools/list #N" to stderr for every tools/list request it receives.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const listing = process.argv[2] ?? 'normal';
const object = (properties = {}) => ({ type: 'object', properties });
const tool = (name, description = `The ${name} attack.`, inputSchema = object()) => ({
  name,
  description,
  inputSchema,
});
const attacks = [
  'big_result',
  'big_error',
  'unterminated',
  'flood_list_changed',
  'flood_notifications',
  'stats',
  'ping',
].map((name) => tool(name));
let listRequests = 0;

function deepSchema(levels) {
  let schema = object();
  for (let level = 0; level < levels; level++) schema = object({ inner: schema });
  return schema;
}

function page(request) {
  const cursor = Number(request.params?.cursor ?? 0);
  const more = { nextCursor: String(cursor + 1) };
  switch (listing) {
    case 'huge-pages': // a thousand pages, each just under the SDK's 10 MB line limit
      return { tools: [tool(`huge_${cursor}`, 'x'.repeat(9_900_000))], ...(cursor < 999 ? more : {}) };
    case 'many-pages': // a thousand pages of 1 MiB each, every one under the per-message limit
      return { tools: [tool(`page_${cursor}`, 'y'.repeat(1024 * 1024))], ...(cursor < 999 ? more : {}) };
    case 'many-tools': // 5,000 tiny tools in pages of 500
      return {
        tools: Array.from({ length: 500 }, (_, index) => tool(`t_${cursor}_${index}`)),
        ...(cursor < 9 ? more : {}),
      };
    case 'dense-schemas': // pages of 4 tools, each schema ~250 KB of empty properties; argv[3] pages (default 1000)
      return {
        tools: Array.from({ length: 4 }, (_, index) =>
          tool(
            `dense_${cursor}_${index}`,
            'Dense.',
            object(Object.fromEntries(Array.from({ length: 20_000 }, (_, key) => [`p${key}`, {}]))),
          ),
        ),
        ...(cursor + 1 < Number(process.argv[3] ?? 1000) ? more : {}),
      };
    case 'odd-tools':
      return {
        tools: [
          ...attacks,
          tool('deep', 'Nested 1,500 levels.', deepSchema(1500)),
          tool(
            'wide',
            'A 1 MB enum.',
            object({ choice: { type: 'string', enum: Array.from({ length: 100_000 }, (_, i) => `v${i}`) } }),
          ),
          tool('wordy', 'w'.repeat(100_000)),
        ],
      };
    case 'stall-refresh':
    case 'slow-pages':
      if (listRequests === 1) return { tools: attacks };
      if (listing === 'stall-refresh') return new Promise(() => {}); // never answered
      return new Promise((resolve) =>
        setTimeout(() => resolve({ tools: [tool(`slow_${cursor}`)], ...more }), 2000),
      );
    default:
      return { tools: attacks };
  }
}

const server = new Server(
  { name: 'hostile', version: '1.0.0' },
  { capabilities: { tools: { listChanged: true }, logging: {} } },
);
server.setRequestHandler(ListToolsRequestSchema, (request) => {
  listRequests += 1;
  process.stderr.write(`tools/list #${listRequests}\n`);
  return page(request);
});
const text = (value) => ({ content: [{ type: 'text', text: value }] });
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const parameters = request.params.arguments ?? {};
  switch (request.params.name) {
    case 'big_result':
      return text('r'.repeat(parameters.chars ?? 9_000_000));
    case 'big_error':
      return { isError: true, ...text('e'.repeat(parameters.chars ?? 9_000_000)) };
    case 'unterminated': {
      // Endless bytes on stdout with no newline, as fast as the client reads them.
      const chunk = 'z'.repeat(64 * 1024);
      const write = () => {
        while (process.stdout.write(chunk));
        process.stdout.once('drain', write);
      };
      write();
      return new Promise(() => {});
    }
    case 'flood_list_changed':
      for (let index = 0; index < (parameters.count ?? 10_000); index++) void server.sendToolListChanged();
      return text(JSON.stringify({ sent: parameters.count ?? 10_000 }));
    case 'flood_notifications': {
      const count = parameters.count ?? 10_000;
      for (let index = 0; index < count; index++) {
        void server.sendLoggingMessage({ level: 'info', data: `log ${index}` });
        void server.notification({
          method: 'notifications/progress',
          params: { progressToken: 'unasked', progress: index },
        });
      }
      return text(JSON.stringify({ sent: count }));
    }
    case 'stats':
      return { content: [], structuredContent: { listRequests } };
    default:
      return { content: [], structuredContent: { pong: true } };
  }
});
process.stdout.on('error', () => process.exit(0));
await server.connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));
