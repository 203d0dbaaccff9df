import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config-load.js';
import { Gateway } from './gateway.js';
import { changingServer, scratch } from './testing-fixtures/gateway.js';

const place = scratch();
afterAll(() => place.remove());

describe('config and start errors name the gateway fix', { timeout: 120_000 }, () => {
  it('names an inline policy\'s own problem and line, not zod\'s bare "Invalid input"', async () => {
    const path = join(place.dir, 'inline-policy.yaml');
    writeFileSync(
      path,
      `servers:
  mine: { command: node, prefix: mine }
clients:
  desktop: { tools: ["mine__*"] }
policy:
  default: allow
  rules:
    - { tools: ["x"], decison: deny }
ledger: ./gateway.ledger.jsonl
`,
    );
    const failure = loadConfig(path, {});
    await expect(failure).rejects.toThrow(
      /inline-policy\.yaml:8: policy\.rules\[0\]\.decision: Invalid option: expected one of "allow"\|"deny"\|"ask"[\s\S]*inline-policy\.yaml:8: policy\.rules\[0\]: unknown field "decison"/,
    );
    await expect(failure).rejects.not.toThrow(/Invalid input/);
  });

  it('names a resources grant whose prefix is no upstream, and its line', async () => {
    const path = join(place.dir, 'resources.yaml');
    writeFileSync(
      path,
      `servers:
  mine: { command: node, prefix: mine }
clients:
  desktop:
    tools: ["mine__*"]
    resources: ["mien:file:///**"]
ledger: ./gateway.ledger.jsonl
`,
    );
    await expect(loadConfig(path, {})).rejects.toThrow(
      /resources\.yaml:6: clients\.desktop\.resources\[0\]: no upstream has the prefix .*"mien"; begin the pattern with one of: mine/,
    );
  });

  it('says what held_call_ms may be, and why, for a value too large', async () => {
    const path = join(place.dir, 'held.yaml');
    writeFileSync(
      path,
      `servers:
  mine: { command: node, prefix: mine }
clients:
  desktop: { tools: ["mine__*"] }
held_call_ms: 900000
ledger: ./gateway.ledger.jsonl
`,
    );
    await expect(loadConfig(path, {})).rejects.toThrow(
      /held\.yaml:5: held_call_ms: must be at most 600000 \(10 minutes, the life of the gateway's requestState\)/,
    );
  });

  it('names the servers entry to check and leaves no empty ledger behind when an upstream cannot start', async () => {
    const path = join(place.dir, 'no-upstream.yaml');
    writeFileSync(
      path,
      `servers:
  gone: { command: ${JSON.stringify(join(place.dir, 'no-such-server'))}, prefix: gone }
clients:
  desktop: { tools: ["gone__*"] }
ledger: ./never.ledger.jsonl
`,
    );
    await expect(Gateway.start(await loadConfig(path, {}), { log: () => undefined })).rejects.toThrow(
      /"gone"/,
    );
    expect(existsSync(join(place.dir, 'never.ledger.jsonl'))).toBe(false);
  });

  it('names servers.<name>.protocol, and its line, for a revision the resolver does not speak', async () => {
    const path = join(place.dir, 'protocol.yaml');
    writeFileSync(
      path,
      `servers:
  mine: { command: node, prefix: mine, protocol: 2026 }
clients:
  desktop: { tools: ["mine__*"] }
ledger: ./gateway.ledger.jsonl
`,
    );
    await expect(loadConfig(path, {})).rejects.toThrow(
      /protocol\.yaml:2: servers\.mine\.protocol: .*"2025-11-25"\|"2026-07-28"\|"auto"/,
    );
  });

  it('names servers.<name>.protocol when a stdio upstream does not offer the 2026-07-28 it demands', async () => {
    const path = join(place.dir, 'pinned.yaml');
    writeFileSync(
      path,
      `servers:
  old: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(changingServer)}], prefix: old, protocol: 2026-07-28 }
clients:
  desktop: { tools: ["old__*"] }
ledger: ./pinned.ledger.jsonl
`,
    );
    await expect(Gateway.start(await loadConfig(path, {}), { log: () => undefined })).rejects.toThrow(
      /MCP server "old" failed during starting it: it does not offer MCP 2026-07-28[\s\S]*set protocol to 'auto' \(or leave it out\) to speak the revision it serves \(servers\.old\.protocol in .*pinned\.yaml\)$/,
    );
    expect(existsSync(join(place.dir, 'pinned.ledger.jsonl'))).toBe(false);
  });
});
