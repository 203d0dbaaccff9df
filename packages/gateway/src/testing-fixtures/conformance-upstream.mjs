// Our own upstream for the MCP conformance suite's server scenarios (@modelcontextprotocol/conformance
// 0.1.x): the SDK's low-level Server over streamable HTTP (sessions, an in-memory event store so a
// stream closed mid-call resumes), serving what the suite's server specification names — the
// `test_*` tools, the `test://` resources and template, the `test_*` prompts, completion and logging;
// and, for the 2026-07-28 scenarios (0.2.x) run through the gateway, the tools and the prompt that
// ask the client for input, asked as a 2025-11-25 server asks: by requests during the call.
// Written from the scenario descriptions the suite prints (`conformance list`, each scenario's
// requirements), not copied from the suite's own example server.
//
// Usage: node conformance-upstream.mjs [--port N]   (127.0.0.1; prints "conformance upstream listening on URL")
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  CreateMessageResultSchema,
  ElicitResultSchema,
  ErrorCode,
  GetPromptRequestSchema,
  isInitializeRequest,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListRootsResultSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

// a 1x1 PNG and a WAV file with no samples, built here rather than pasted
const png = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c63f8cfc0f01f0005050200' +
    '5fc8f1d20000000049454e44ae426082',
  'hex',
).toString('base64');
const wav = (() => {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(0, 40);
  return header.toString('base64');
})();

const noArguments = { type: 'object', properties: {} };
const text = (value) => ({ type: 'text', text: value });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const tools = [
  { name: 'test_simple_text', description: 'Answers a simple text.', inputSchema: noArguments },
  { name: 'test_image_content', description: 'Answers an image (a 1x1 PNG).', inputSchema: noArguments },
  { name: 'test_audio_content', description: 'Answers audio (a WAV file).', inputSchema: noArguments },
  { name: 'test_embedded_resource', description: 'Answers an embedded resource.', inputSchema: noArguments },
  {
    name: 'test_multiple_content_types',
    description: 'Answers text, an image and an embedded resource.',
    inputSchema: noArguments,
  },
  {
    name: 'test_tool_with_logging',
    description: 'Logs three messages while it runs.',
    inputSchema: noArguments,
  },
  { name: 'test_tool_with_progress', description: 'Reports progress three times.', inputSchema: noArguments },
  { name: 'test_error_handling', description: 'Always fails.', inputSchema: noArguments },
  {
    name: 'test_reconnection',
    description: 'Closes its response stream mid-call.',
    inputSchema: noArguments,
  },
  {
    name: 'test_sampling',
    description: "Asks the client's model (sampling) with the prompt given.",
    inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
  },
  {
    name: 'test_elicitation',
    description: "Asks the client's user (elicitation) with the message given.",
    inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  },
  {
    name: 'test_elicitation_sep1034_defaults',
    description: 'Elicits a form whose every field has a default.',
    inputSchema: noArguments,
  },
  {
    name: 'test_elicitation_sep1330_enums',
    description: 'Elicits a form with every kind of enum.',
    inputSchema: noArguments,
  },
  {
    name: 'test_custom_header',
    description: 'Echoes its region, which a 2026-07-28 client also sends as the Mcp-Param-Region header.',
    inputSchema: {
      type: 'object',
      properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
      required: ['region'],
    },
  },
  {
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: {
          $anchor: 'addressDef',
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
        },
      },
      properties: {
        name: { type: 'string' },
        address: { $ref: '#/$defs/address' },
        contactMethod: { type: 'string', enum: ['phone', 'email'] },
        phone: { type: 'string' },
        email: { type: 'string' },
      },
      // the wider vocabulary of SEP-2106 (suite 0.2.x checks each keyword survives a listing)
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, never awaited
      then: { required: ['phone'] },
      else: { required: ['email'] },
      additionalProperties: false,
    },
  },
];

// The 2026-07-28 scenarios' tools that ask the client for input (SEP-2322). A 2025-11-25 server asks
// by requests during the call (sent on the call's own stream); through the gateway a 2026-07-28
// client gets them as input_required results and answers by retrying the call.
const asking = (name, description) => ({ name, description, inputSchema: noArguments });
tools.push(
  asking('test_input_required_result_elicitation', "Asks the user's name (elicitation)."),
  asking('test_input_required_result_sampling', "Asks the client's model a question (sampling)."),
  asking('test_input_required_result_list_roots', "Asks the client's roots."),
  asking('test_input_required_result_request_state', 'Asks the user to confirm (elicitation).'),
  asking(
    'test_input_required_result_multiple_inputs',
    'Asks an elicitation, a sampling and the roots at once.',
  ),
  asking('test_input_required_result_multi_round', 'Asks two elicitations, one after the other.'),
  asking('test_input_required_result_tampered_state', 'Asks the user to confirm (elicitation).'),
  asking('test_input_required_result_capabilities', "Asks the client's model (sampling) only."),
  asking('test_missing_capability', "Needs the client's sampling capability."),
);

const nameForm = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
const confirmForm = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
const question = (prompt, maxTokens) => ({
  messages: [{ role: 'user', content: text(prompt) }],
  maxTokens,
});

/** The answers of the asking tools, each asked by `extra.sendRequest` (on the call's own stream). */
async function askingTool(name, extra) {
  const elicit = (message, requestedSchema) =>
    extra.sendRequest(
      { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema } },
      ElicitResultSchema,
    );
  const sample = (prompt, maxTokens) =>
    extra.sendRequest(
      { method: 'sampling/createMessage', params: question(prompt, maxTokens) },
      CreateMessageResultSchema,
    );
  const roots = () => extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema);
  const said = (answer) =>
    answer.content?.type === 'text' ? answer.content.text : JSON.stringify(answer.content);
  switch (name) {
    case 'test_input_required_result_elicitation': {
      const answer = await elicit('What is your name?', nameForm);
      return { content: [text(`Hello, ${answer.content?.name ?? '(no name)'}! (${answer.action})`)] };
    }
    case 'test_input_required_result_sampling':
    case 'test_input_required_result_capabilities':
    case 'test_missing_capability':
      return {
        content: [text(`LLM response: ${said(await sample('What is the capital of France?', 100))}`)],
      };
    case 'test_input_required_result_list_roots': {
      const { roots: given } = await roots();
      return { content: [text(`roots: ${given.map((root) => root.uri).join(', ')}`)] };
    }
    case 'test_input_required_result_request_state':
    case 'test_input_required_result_tampered_state': {
      const answer = await elicit('Please confirm', confirmForm);
      return { content: [text(`state-ok: action=${answer.action}, ok=${String(answer.content?.ok)}`)] };
    }
    case 'test_input_required_result_multiple_inputs': {
      const [named, greeting, given] = await Promise.all([
        elicit('What is your name?', nameForm),
        sample('Generate a greeting', 50),
        roots(),
      ]);
      return {
        content: [
          text(`name ${named.content?.name}, greeting ${said(greeting)}, ${given.roots.length} root(s)`),
        ],
      };
    }
    case 'test_input_required_result_multi_round': {
      const first = await elicit('Step 1: What is your name?', nameForm);
      const second = await elicit('Step 2: What is your favorite color?', {
        type: 'object',
        properties: { color: { type: 'string' } },
        required: ['color'],
      });
      return { content: [text(`${first.content?.name} likes ${second.content?.color}`)] };
    }
    default:
      return undefined;
  }
}

const defaultsForm = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'Name', default: 'John Doe' },
    age: { type: 'integer', description: 'Age', default: 30 },
    score: { type: 'number', description: 'Score', default: 95.5 },
    status: {
      type: 'string',
      description: 'Status',
      enum: ['active', 'inactive', 'pending'],
      default: 'active',
    },
    verified: { type: 'boolean', description: 'Verified', default: true },
  },
};
const choices = (prefix, titles) => titles.map((title, index) => ({ const: `${prefix}${index + 1}`, title }));
const enumsForm = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      oneOf: choices('value', ['First Option', 'Second Option', 'Third Option']),
    },
    legacyEnum: {
      type: 'string',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
    titledMulti: {
      type: 'array',
      items: { anyOf: choices('value', ['First Choice', 'Second Choice', 'Third Choice']) },
    },
  },
};

async function callTool(server, transport, request, extra) {
  const { name, arguments: parameters = {} } = request.params;
  const elicit = async (message, requestedSchema, label) => {
    const answer = await server.request(
      { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema } },
      ElicitResultSchema,
    );
    return {
      content: [text(`${label}: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`)],
    };
  };
  switch (name) {
    case 'test_simple_text':
      return { content: [text('This is a simple text response for testing.')] };
    case 'test_image_content':
      return { content: [{ type: 'image', data: png, mimeType: 'image/png' }] };
    case 'test_audio_content':
      return { content: [{ type: 'audio', data: wav, mimeType: 'audio/wav' }] };
    case 'test_embedded_resource':
      return {
        content: [
          {
            type: 'resource',
            resource: {
              uri: 'test://embedded-resource',
              mimeType: 'text/plain',
              text: 'This is an embedded resource content.',
            },
          },
        ],
      };
    case 'test_multiple_content_types':
      return {
        content: [
          text('Multiple content types test:'),
          { type: 'image', data: png, mimeType: 'image/png' },
          {
            type: 'resource',
            resource: {
              uri: 'test://mixed-content-resource',
              mimeType: 'application/json',
              text: JSON.stringify({ test: 'data', value: 123 }),
            },
          },
        ],
      };
    case 'test_tool_with_logging':
      for (const [index, message] of [
        'Tool execution started',
        'Tool processing data',
        'Tool execution completed',
      ].entries()) {
        if (index > 0) await sleep(50);
        await extra.sendNotification({
          method: 'notifications/message',
          params: { level: 'info', data: message },
        });
      }
      return { content: [text('Tool with logging executed successfully')] };
    case 'test_tool_with_progress': {
      const progressToken = request.params._meta?.progressToken;
      for (const progress of [0, 50, 100]) {
        if (progress > 0) await sleep(50);
        if (progressToken !== undefined)
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress, total: 100, message: `${progress} of 100` },
          });
      }
      return { content: [text(`progress reported for token ${String(progressToken)}`)] };
    }
    case 'test_error_handling':
      return { isError: true, content: [text('This tool intentionally returns an error for testing')] };
    case 'test_reconnection':
      transport.closeSSEStream(extra.requestId);
      await sleep(100);
      return { content: [text('Reconnection test completed: the answer came after the stream was closed.')] };
    case 'test_sampling': {
      const answer = await server.createMessage({
        messages: [{ role: 'user', content: text(String(parameters.prompt)) }],
        maxTokens: 100,
      });
      const reply = answer.content?.type === 'text' ? answer.content.text : JSON.stringify(answer.content);
      return { content: [text(`LLM response: ${reply}`)] };
    }
    case 'test_elicitation':
      return elicit(
        String(parameters.message),
        {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
        'User response',
      );
    case 'test_elicitation_sep1034_defaults':
      return elicit('Please review the fields (each has a default)', defaultsForm, 'Elicitation completed');
    case 'test_elicitation_sep1330_enums':
      return elicit('Please choose', enumsForm, 'Elicitation completed');
    case 'test_custom_header':
      return { content: [text(`region ${JSON.stringify(parameters.region)}`)] };
    case 'json_schema_2020_12_tool':
      return { content: [text(`received ${JSON.stringify(parameters)}`)] };
    default:
      return (
        (await askingTool(name, extra)) ?? {
          isError: true,
          content: [text(`unknown tool ${JSON.stringify(name)}`)],
        }
      );
  }
}

const resources = [
  {
    uri: 'test://static-text',
    name: 'static-text',
    description: 'A static text resource.',
    mimeType: 'text/plain',
  },
  {
    uri: 'test://static-binary',
    name: 'static-binary',
    description: 'A static PNG image.',
    mimeType: 'image/png',
  },
  {
    uri: 'test://watched-resource',
    name: 'watched-resource',
    description: 'A resource one can subscribe to.',
    mimeType: 'text/plain',
  },
];
const templateUri = /^test:\/\/template\/([^/]+)\/data$/;

function readResource(uri) {
  if (uri === 'test://static-text')
    return {
      contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
    };
  if (uri === 'test://static-binary') return { contents: [{ uri, mimeType: 'image/png', blob: png }] };
  if (uri === 'test://watched-resource')
    return { contents: [{ uri, mimeType: 'text/plain', text: 'The content of the watched resource.' }] };
  const match = templateUri.exec(uri);
  if (match) {
    const id = decodeURIComponent(match[1]);
    return {
      contents: [
        {
          uri,
          mimeType: 'application/json',
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        },
      ],
    };
  }
  // SEP-2164: an unknown resource is Invalid Params naming the URI in its data
  throw new McpError(ErrorCode.InvalidParams, `no resource ${JSON.stringify(uri)}`, { uri });
}

const prompts = [
  { name: 'test_simple_prompt', description: 'A prompt with no arguments.' },
  {
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two arguments.',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
  },
  {
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt embedding the resource named.',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
  },
  { name: 'test_prompt_with_image', description: 'A prompt with an image.' },
  { name: 'test_input_required_result_prompt', description: 'A prompt that asks the user for its context.' },
];

async function getPrompt(name, parameters, extra) {
  if (name !== 'test_input_required_result_prompt') return staticPrompt(name, parameters);
  const answer = await extra.sendRequest(
    {
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message: 'What context should the prompt use?',
        requestedSchema: {
          type: 'object',
          properties: { context: { type: 'string' } },
          required: ['context'],
        },
      },
    },
    ElicitResultSchema,
  );
  return { messages: [{ role: 'user', content: text(`Context: ${answer.content?.context ?? '(none)'}`) }] };
}

function staticPrompt(name, parameters = {}) {
  const user = (content) => ({ role: 'user', content });
  switch (name) {
    case 'test_simple_prompt':
      return { messages: [user(text('This is a simple prompt for testing.'))] };
    case 'test_prompt_with_arguments':
      return {
        messages: [user(text(`Prompt with arguments: arg1='${parameters.arg1}', arg2='${parameters.arg2}'`))],
      };
    case 'test_prompt_with_embedded_resource':
      return {
        messages: [
          user({
            type: 'resource',
            resource: {
              uri: String(parameters.resourceUri),
              mimeType: 'text/plain',
              text: 'Embedded resource content for testing.',
            },
          }),
          user(text('Please process the embedded resource above.')),
        ],
      };
    case 'test_prompt_with_image':
      return {
        messages: [
          user({ type: 'image', data: png, mimeType: 'image/png' }),
          user(text('Please analyze the image above.')),
        ],
      };
    default:
      throw new Error(`no prompt ${JSON.stringify(name)}`);
  }
}

/** One SDK server per session, as the SDK's stateful streamable HTTP wants. */
function sessionServer(transport) {
  const server = new Server(
    { name: 'toolgate-conformance-upstream', version: '1.0.0' },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        completions: {},
        logging: {},
      },
    },
  );
  const subscriptions = new Set();
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    callTool(server, transport, request, extra),
  );
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      {
        uriTemplate: 'test://template/{id}/data',
        name: 'template',
        description: 'Data for an id.',
        mimeType: 'application/json',
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => readResource(request.params.uri));
  server.setRequestHandler(SubscribeRequestSchema, (request) => {
    subscriptions.add(request.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscriptions.delete(request.params.uri);
    return {};
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts }));
  server.setRequestHandler(GetPromptRequestSchema, (request, extra) =>
    getPrompt(request.params.name, request.params.arguments, extra),
  );
  server.setRequestHandler(CompleteRequestSchema, (request) => {
    const { value } = request.params.argument;
    const values = ['paris', 'park', 'party'].filter((word) => word.startsWith(value));
    return { completion: { values, total: values.length, hasMore: false } };
  });
  server.setRequestHandler(SetLevelRequestSchema, () => ({}));
  return server;
}

/** Every event of every stream, kept so a client reconnecting with Last-Event-ID gets what it missed. */
function memoryEventStore() {
  const events = [];
  return {
    async storeEvent(streamId, message) {
      const eventId = `${streamId}_${events.length}`;
      events.push({ eventId, streamId, message });
      return eventId;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const at = events.findIndex((event) => event.eventId === lastEventId);
      if (at < 0) throw new Error(`unknown event ${lastEventId}`);
      const { streamId } = events[at];
      for (const event of events.slice(at + 1))
        if (event.streamId === streamId) await send(event.eventId, event.message);
      return streamId;
    },
  };
}

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } } });
const sessions = new Map();

async function readJson(request) {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  const body = Buffer.concat(chunks).toString('utf8');
  return body === '' ? undefined : JSON.parse(body);
}

const http = createServer(async (request, response) => {
  const fail = (status, message) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
  };
  try {
    // DNS-rebinding protection: only a loopback Host (and Origin, when sent)
    const loopback = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;
    const origin = request.headers.origin;
    if (
      !loopback.test(request.headers.host ?? '') ||
      (origin !== undefined && !loopback.test(new URL(origin).host))
    )
      return fail(403, 'Host or Origin is not loopback');
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== '/mcp') return fail(404, 'not found');
    const body = request.method === 'POST' ? await readJson(request) : undefined;
    const id = request.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (transport === undefined) {
      // a session id this server does not hold (ended, or never made) is 404, so the client starts anew
      if (typeof id === 'string') return fail(404, 'no such session');
      if (request.method !== 'POST' || !isInitializeRequest(body))
        return fail(400, 'no session: initialize first');
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        eventStore: memoryEventStore(),
        retryInterval: 500,
        onsessioninitialized: (sessionId) => sessions.set(sessionId, transport),
        onsessionclosed: (sessionId) => sessions.delete(sessionId),
      });
      await sessionServer(transport).connect(transport);
    }
    await transport.handleRequest(request, response, body);
  } catch (error) {
    if (!response.headersSent) fail(500, error instanceof Error ? error.message : String(error));
  }
});

http.listen(Number(values.port), '127.0.0.1', () => {
  const { port } = http.address();
  process.stdout.write(`conformance upstream listening on http://127.0.0.1:${port}/mcp\n`);
});
const stop = () => http.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
