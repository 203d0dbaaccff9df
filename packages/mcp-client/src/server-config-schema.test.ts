import { describe, expect, it } from 'vitest';
import { checkServerConfig, type McpServerConfig } from './server-config.js';
import { mcpServerConfigSchema } from './server-config-schema.js';

const accepted: unknown[] = [
  { name: 'files', command: process.execPath, args: ['server.js'], env: { A: '1' }, prefix: 'fs' },
  { name: 'web', url: 'http://127.0.0.1:8931/mcp', headers: { Authorization: 'Bearer x' }, timeoutMs: 5000 },
  { name: 'web', url: new URL('https://example.test/mcp'), limits: { maxTools: 10 } },
  { name: 'shell', command: 'toolgate-mcp', subjects: { run: { commands: ['command'], urls: ['url'] } } },
  { name: 'modern', command: process.execPath, args: ['server.js'], protocol: 'auto' },
  { name: 'pinned', url: 'http://127.0.0.1:8931/mcp', protocol: '2026-07-28' },
];

const refused: Array<[unknown, RegExp]> = [
  [{ name: 'x', command: 'node', prefix: 'has space' }, /prefix/],
  [{ name: 'x', command: 'node', timeoutMs: 0 }, /timeoutMs/],
  [{ name: 'x', command: 'node', limits: { maxTools: 1.5 } }, /limits\.maxTools/],
  [{ name: 'x', command: 'node', limits: { maxToys: 3 } }, /maxToys/],
  [{ name: 'x', command: 'node', subjects: { run: { argv: ['a'] } } }, /argv/],
  [{ name: 'x', command: '' }, /command/],
  [{ name: '', command: 'node' }, /name/],
  [{ name: 'x', command: 'node', protocol: '2026' }, /protocol/],
];

describe('the server config schema', () => {
  it('reads the configs MCPResolver takes, as the type it takes', () => {
    for (const config of accepted) {
      const parsed: McpServerConfig = mcpServerConfigSchema.parse(config);
      expect(parsed).toEqual(config);
      expect(() => checkServerConfig(parsed)).not.toThrow();
    }
  });

  it('refuses what checkServerConfig refuses, naming the same field', () => {
    for (const [config, field] of refused) {
      const result = mcpServerConfigSchema.safeParse(config);
      expect(result.success, JSON.stringify(config)).toBe(false);
      expect(() => checkServerConfig(config as McpServerConfig)).toThrow(field);
    }
  });

  it('refuses an unknown key and a server with neither command nor url', () => {
    expect(mcpServerConfigSchema.safeParse({ name: 'x', command: 'node', comand: 'y' }).success).toBe(false);
    expect(mcpServerConfigSchema.safeParse({ name: 'x' }).success).toBe(false);
  });
});
