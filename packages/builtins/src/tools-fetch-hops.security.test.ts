import type { IncomingMessage } from 'node:http';
import { type ApprovalRequest, RulePolicy, ToolGate, ToolRegistry } from '@toolgate/core';
import { LocalEnvironment } from '@toolgate/environment';
import { type LocalServer, startServer } from '@toolgate/environment/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinTools } from './builtin-tools.js';
import { codeOf, outputOf } from './testing-fixtures/agent.js';

// Two real servers on loopback under two names: policy allows `allowed.test` and denies
// `denied.test`; the environment's address rules let both through (loopback is allowed for them),
// so only host policy on each hop can stop the redirect.
let allowed: LocalServer;
let denied: LocalServer;
const bodies = new Map<IncomingMessage, string>();
beforeAll(async () => {
  denied = await startServer((request, response) => {
    collect(request).then(() => response.end('collected'));
  });
  allowed = await startServer((request, response) => {
    collect(request).then(() => {
      if (request.url === '/307') {
        response.writeHead(307, { location: `http://denied.test:${denied.port}/collect` }).end();
      } else if (request.url === '/hop') {
        response.writeHead(302, { location: `http://allowed.test:${allowed.port}/307` }).end();
      } else if (request.url === '/to-ask') {
        response.writeHead(302, { location: `http://ask.test:${denied.port}/asked` }).end();
      } else response.end(`page for ${request.headers.host}`);
    });
  });
});
afterAll(async () => {
  await allowed.close();
  await denied.close();
});

function collect(request: IncomingMessage): Promise<void> {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => {
    body += chunk;
  });
  return new Promise((resolve) =>
    request.on('end', () => {
      bodies.set(request, body);
      resolve();
    }),
  );
}

const policy = new RulePolicy({
  default: 'allow',
  rules: [
    { tools: ['fetch'], hosts: ['denied.test'], decision: 'deny', reason: 'denied.test is off limits' },
    { tools: ['fetch'], hosts: ['ask.test'], decision: 'ask' },
  ],
});

function fetchAgent(approver?: (request: ApprovalRequest) => boolean) {
  const environment = new LocalEnvironment({
    root: process.cwd(),
    lookup: async () => [{ address: '127.0.0.1', family: 4 }],
    allowHosts: [`allowed.test:${allowed.port}`, `denied.test:${denied.port}`, `ask.test:${denied.port}`],
  });
  const registry = new ToolRegistry();
  for (const tool of builtinTools(environment)) registry.register(tool);
  const decided: { verdict: string; decision: string; reason: string }[] = [];
  const gate = new ToolGate(registry, {
    policy,
    ...(approver ? { approver } : {}),
    recorder: {
      toolCalled() {},
      policyDecided: (record) =>
        void decided.push({
          verdict: record.verdict.decision,
          decision: record.decision,
          reason: record.reason,
        }),
      toolReturned() {},
    },
  });
  return { agent: gate.forAgent({ name: 'fetcher', tools: ['fetch'] }), decided };
}

describe('fetch judges every hop by host policy', () => {
  it('ends a call whose 307 leads from an allowed host to a denied one, before the denied host is contacted', async () => {
    const { agent, decided } = fetchAgent();
    const before = denied.requests.length;
    const result = await agent.callTool('fetch', {
      url: `http://allowed.test:${allowed.port}/307`,
      method: 'POST',
      body: 'the secret form',
    });
    expect(codeOf(result)).toBe('PERMISSION_DENIED');
    expect(result.isError && result.error.message).toContain(`http://denied.test:${denied.port}/collect`);
    expect(result.isError && result.error.message).toContain('denied.test is off limits');
    expect(denied.requests.length).toBe(before);
    // the hop's decision is recorded beside the call's own
    expect(decided.map((record) => record.decision)).toEqual(['allow', 'deny']);
    expect(decided[1]!.reason).toContain('denied.test');
  });

  it('judges a later hop too: allowed → allowed → denied', async () => {
    const { agent } = fetchAgent();
    const before = denied.requests.length;
    const result = await agent.callTool('fetch', { url: `http://allowed.test:${allowed.port}/hop` });
    expect(codeOf(result)).toBe('PERMISSION_DENIED');
    expect(denied.requests.length).toBe(before);
  });

  it('asks the approver about a hop policy asks for, with the hop in the request', async () => {
    const asked: ApprovalRequest[] = [];
    const { agent } = fetchAgent((request) => {
      asked.push(request);
      return false;
    });
    const before = denied.requests.length;
    const result = await agent.callTool('fetch', { url: `http://allowed.test:${allowed.port}/to-ask` });
    expect(codeOf(result)).toBe('PERMISSION_DENIED');
    expect(asked.map((request) => request.subject)).toEqual([{ hosts: ['ask.test'] }]);
    expect(denied.requests.length).toBe(before);

    const approving = fetchAgent(() => true).agent;
    const approved = await approving.callTool('fetch', { url: `http://allowed.test:${allowed.port}/to-ask` });
    expect(outputOf(approved).body).toBe('collected');
    expect(denied.requests.length).toBe(before + 1);
  });

  it('still follows a redirect between allowed hosts', async () => {
    const { agent } = fetchAgent();
    const output = outputOf(await agent.callTool('fetch', { url: `http://allowed.test:${allowed.port}/` }));
    expect(output.body).toBe(`page for allowed.test:${allowed.port}`);
  });
});

describe('fetch refuses a caller-supplied Host header', () => {
  it.each([['Host'], ['host'], ['HOST'], ['hOsT']])('refuses %s, contacting nobody', async (name) => {
    const { agent } = fetchAgent();
    const before = [allowed.requests.length, denied.requests.length];
    const result = await agent.callTool('fetch', {
      url: `http://allowed.test:${allowed.port}/`,
      headers: { [name]: `denied.test:${denied.port}` },
    });
    expect(codeOf(result)).toBe('INVALID_PARAMETERS');
    expect(result.isError && result.error.message).toMatch(/Host/);
    expect([allowed.requests.length, denied.requests.length]).toEqual(before);
  });
});
