import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { upstreamError } from './refusals.js';

describe('upstreamError', () => {
  it("passes an upstream's code and data on (SEP-2164: the URI of a resource it does not have)", () => {
    const missing = new McpError(ErrorCode.InvalidParams, 'no resource "test://missing"', {
      uri: 'test://missing',
    });
    expect(upstreamError(missing)).toMatchObject({
      code: ErrorCode.InvalidParams,
      message: 'no resource "test://missing"',
      data: { uri: 'test://missing' },
    });
    const wrapped = new Error('upstream "conformance": no resource', { cause: missing });
    expect(upstreamError(wrapped)).toMatchObject({
      code: ErrorCode.InvalidParams,
      data: { uri: 'test://missing' },
    });
  });

  it('sends no data where the upstream sent none, and an internal error for any other failure', () => {
    expect('data' in upstreamError(new McpError(-32002, 'Resource not found'))).toBe(false);
    const other = upstreamError(new Error('upstream "conformance" closed'));
    expect(other).toMatchObject({ code: ErrorCode.InternalError, message: 'upstream "conformance" closed' });
    expect('data' in other).toBe(false);
  });
});
