import { describe, expect, it } from 'vitest';
import { headerValue, paramHeaderMismatch, paramHeaders, scanParamHeaders } from './param-headers.js';

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

describe('Mcp-Param headers judged by a server', () => {
  const declared = [
    { path: ['where', 'region'], name: 'Region' },
    { path: ['count'], name: 'Count' },
  ];
  const headers = (values: Record<string, string>) => (name: string) =>
    Object.entries(values).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];

  it('accepts headers that decode to the arguments, Base64 of UTF-8 included and numbers as numbers', () => {
    const parameters = { where: { region: 'Ünterland' }, count: 42 };
    const sent = headers({ 'Mcp-Param-Region': base64('Ünterland'), 'mcp-param-count': '42.0' });
    expect(paramHeaderMismatch(declared, parameters, sent)).toBeUndefined();
    // what a toolgate client sends is what a toolgate server accepts
    expect(
      paramHeaderMismatch(declared, parameters, headers(paramHeaders(declared, parameters))),
    ).toBeUndefined();
  });

  it('expects no header for a null or absent argument', () => {
    expect(paramHeaderMismatch(declared, { where: { region: null } }, headers({}))).toBeUndefined();
  });

  it('names the header that is missing, different, or not canonical Base64 of UTF-8', () => {
    const parameters = { where: { region: 'north' }, count: 1 };
    expect(paramHeaderMismatch(declared, parameters, headers({ 'Mcp-Param-Count': '1' }))).toMatch(
      /Mcp-Param-Region header is missing for argument "where.region"/,
    );
    expect(
      paramHeaderMismatch(
        declared,
        parameters,
        headers({ 'Mcp-Param-Region': 'north', 'Mcp-Param-Count': '2' }),
      ),
    ).toMatch(/Mcp-Param-Count header \("2"\) does not match argument "count" \(1\)/);
    for (const invalid of [
      '=?base64?bm9ydGg?=',
      '=?base64?n*rth?=',
      `=?base64?${Buffer.from([0xff]).toString('base64')}?=`,
    ]) {
      expect(paramHeaderMismatch(declared, parameters, headers({ 'Mcp-Param-Region': invalid }))).toMatch(
        /Mcp-Param-Region header is not valid Base64/,
      );
    }
  });
});
