import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readAll } from '@toolgate/ledger';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from './config-load.js';
import { Gateway } from './gateway.js';
import { changingServer, scratch } from './testing-fixtures/gateway.js';

const constructed = vi.hoisted(() => ({ gates: 0 }));

// every ToolGate the gateway makes is counted: the core module is the real one, its gate subclassed
vi.mock('@toolgate/core', async (importOriginal) => {
  const core = await importOriginal<typeof import('@toolgate/core')>();
  class CountedGate extends core.ToolGate {
    constructor(...parameters: ConstructorParameters<typeof core.ToolGate>) {
      super(...parameters);
      constructed.gates += 1;
    }
  }
  return { ...core, ToolGate: CountedGate };
});

const configWith = (tools: string, policy = '') => `servers:
  mine: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(changingServer)}], prefix: mine }
clients:
  desktop: { tools: ${tools} }
stdio: desktop
ledger: ./gate.ledger.jsonl
${policy}`;

describe('the gateway gate', { timeout: 120_000 }, () => {
  const place = scratch();
  const path = join(place.dir, 'gateway.yaml');
  let gateway: Gateway | undefined;
  afterAll(async () => {
    await gateway?.close();
    place.remove();
  });

  it('holds one gate for its lifetime: every call, refused or not, and a reload run through it', async () => {
    writeFileSync(path, configWith('["mine__*"]'));
    gateway = await Gateway.start(await loadConfig(path));
    expect(constructed.gates).toBe(1);
    const gate = gateway.gate;

    for (let call = 0; call < 3; call += 1) {
      const result = await gateway.callTool({ client: 'desktop', tool: 'mine__pid', parameters: {} });
      expect(result).toMatchObject({ isError: false });
    }
    const stranger = await gateway.callTool({ client: 'nobody', tool: 'mine__pid', parameters: {} });
    expect(stranger).toMatchObject({ isError: true, error: { code: 'CAPABILITY_VIOLATION' } });

    writeFileSync(
      path,
      configWith(
        '["mine__note"]',
        'policy:\n  default: allow\n  rules:\n    - { tools: [mine__note], decision: deny }\n',
      ),
    );
    await gateway.reload(await loadConfig(path));
    const refused = await gateway.callTool({ client: 'desktop', tool: 'mine__pid', parameters: {} });
    expect(refused).toMatchObject({ isError: true, error: { code: 'CAPABILITY_VIOLATION' } });
    const denied = await gateway.callTool({
      client: 'desktop',
      tool: 'mine__note',
      parameters: { text: 'x' },
    });
    expect(denied).toMatchObject({ isError: true, error: { code: 'PERMISSION_DENIED' } });

    expect(constructed.gates).toBe(1);
    expect(gateway.gate).toBe(gate);
    const kinds = (await readAll(gateway.store.read())).map((event) => event.kind);
    expect(kinds.filter((kind) => kind === 'tool.called')).toHaveLength(6);
  });
});
