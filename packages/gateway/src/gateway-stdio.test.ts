import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  configText,
  connectStdio,
  scratch,
  sdkClient,
  textOf,
} from './testing-fixtures/gateway.js';

describe('toolgate-gateway over stdio, with a raw SDK client', { timeout: 120_000 }, () => {
  const place = scratch();
  const config = join(place.dir, 'gateway.yaml');
  let answer: Answer = 'approve';
  let client: Client;
  beforeAll(async () => {
    writeFileSync(config, configText(place.workspace));
    client = sdkClient(() => answer);
    await connectStdio(client, config);
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    place.remove();
  });

  it('lists only the tools the stdio client is granted', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name).sort();
    expect(names).toEqual(
      [
        'ev__echo',
        'ev__get-tiny-image',
        'ev__trigger-long-running-operation',
        'fs__list_directory',
        'fs__read_text_file',
        'mine__hang',
        'mine__note',
        'mine__pid',
        'mine__rewrite',
      ].sort(),
    );
  });

  it('runs an allowed call on the real filesystem server', async () => {
    const result = await client.callTool({ name: 'fs__read_text_file', arguments: { path: join(place.workspace, 'hello.txt') } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('hello from the workspace\n');
  });

  it('refuses a tool outside the grant, before any upstream is asked', async () => {
    const result = await client.callTool({ name: 'fs__write_file', arguments: { path: join(place.workspace, 'x'), content: 'x' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^CAPABILITY_VIOLATION: .*desktop.*fs__write_file/);
  });

  it('refuses a path policy denies, even written to climb out of the workspace and back', async () => {
    for (const path of [join(place.workspace, 'secret', 'key.txt'), `${place.workspace}/hello/../secret/key.txt`]) {
      const result = await client.callTool({ name: 'fs__read_text_file', arguments: { path } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^PERMISSION_DENIED: .*secrets stay put/);
      expect(textOf(result)).not.toContain('do not read me');
    }
  });

  it('asks the user by elicitation when policy says ask: approved runs, declined is refused', async () => {
    answer = 'approve';
    const approved = await client.callTool({ name: 'ev__echo', arguments: { message: 'hi there' } });
    expect(approved.isError).toBeFalsy();
    expect(textOf(approved)).toContain('hi there');
    answer = 'decline';
    const declined = await client.callTool({ name: 'ev__echo', arguments: { message: 'hi again' } });
    expect(declined.isError).toBe(true);
    expect(textOf(declined)).toMatch(/^PERMISSION_DENIED: .*the user chose decline/);
    answer = 'approve';
  });

  it('passes an image from server-everything through intact', async () => {
    const result = await client.callTool({ name: 'ev__get-tiny-image', arguments: {} });
    expect(result.isError).toBeFalsy();
    const image = (result.content as Array<{ type: string; data?: string; mimeType?: string }>).find(
      (block) => block.type === 'image',
    );
    expect(image?.mimeType).toBe('image/png');
    expect(Buffer.from(image?.data ?? '', 'base64').subarray(1, 4).toString()).toBe('PNG');
  });

  it('passes progress through from the upstream', async () => {
    const seen: number[] = [];
    const result = await client.request(
      { method: 'tools/call', params: { name: 'ev__trigger-long-running-operation', arguments: { duration: 0.2, steps: 3 } } },
      CallToolResultSchema,
      { onprogress: (progress) => seen.push(progress.progress), timeout: 60_000 },
    );
    expect(result.isError).toBeFalsy();
    expect(seen).toEqual([1, 2, 3]);
  });
});
