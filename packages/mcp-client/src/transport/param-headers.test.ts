import { describe, expect, it } from 'vitest';
import { headerValue, paramHeaders, scanParamHeaders } from './param-headers.js';

const base64 = (text: string) => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;

describe('x-mcp-header declarations', () => {
  it('finds declarations at any depth through properties, in listed order', () => {
    const scan = scanParamHeaders({
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        target: { type: 'object', properties: { zone: { type: 'integer', 'x-mcp-header': 'Zone' } } },
      },
    });
    expect(scan).toEqual({
      headers: [
        { path: ['region'], name: 'Region' },
        { path: ['target', 'zone'], name: 'Zone' },
      ],
    });
  });

  it('refuses a declaration that only items, anyOf or $defs reach, and one on the root', () => {
    for (const schema of [
      {
        type: 'object',
        properties: { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } },
      },
      { type: 'object', anyOf: [{ properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }] },
      { type: 'object', $defs: { id: { type: 'string', 'x-mcp-header': 'Id' } } },
      { type: 'object', 'x-mcp-header': 'Root' },
    ]) {
      expect(scanParamHeaders(schema)).toMatchObject({ problem: expect.stringContaining('not reached') });
    }
  });

  it('refuses an empty name, a name with a control character, and one that is not ASCII', () => {
    for (const name of ['', 'Region\t1', 'Région', 'Region:Primary']) {
      const scan = scanParamHeaders({
        type: 'object',
        properties: { v: { type: 'string', 'x-mcp-header': name } },
      });
      expect('problem' in scan).toBe(true);
    }
  });
});

describe('Mcp-Param header values', () => {
  it('sends printable ASCII as it is and Base64 for anything a header field would change or refuse', () => {
    expect(headerValue('us west 1')).toBe('us west 1');
    for (const text of ['', ' padded', 'tab\tinside', 'line1\r\nline2', 'Hello, 世界', '=?base64?abc?=']) {
      expect(headerValue(text)).toBe(base64(text));
    }
  });

  it('writes booleans and numbers as text and leaves out null, absent and non-primitive arguments', () => {
    const declared = ['flag', 'count', 'ratio', 'nothing', 'missing', 'list'].map((name) => ({
      path: [name],
      name,
    }));
    const headers = paramHeaders(declared, { flag: true, count: 42, ratio: 0.5, nothing: null, list: ['a'] });
    expect(headers).toEqual({ 'mcp-param-flag': 'true', 'mcp-param-count': '42', 'mcp-param-ratio': '0.5' });
  });
});
