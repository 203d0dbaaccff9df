import { createHash } from 'node:crypto';
import { ToolGate, ToolRegistry } from '@toolgate/core';
import { describe, expect, it } from 'vitest';
import { drawOmen, omens, oracleTool } from './oracle.js';

describe('oracle', () => {
  it('picks the omen from the first four bytes of SHA-256 of the seed', () => {
    const seed = 'The grove is quiet; moss covers the north stones.';
    const index = createHash('sha256').update(seed, 'utf8').digest().readUInt32BE(0) % omens.length;
    expect(drawOmen(seed)).toBe(omens[index]);
  });

  it('gives the same omen for the same seed and reaches every omen over many seeds', () => {
    expect(drawOmen('moss')).toBe(drawOmen('moss'));
    const seen = new Set(Array.from({ length: 400 }, (_, n) => drawOmen(`seed ${n}`)));
    expect(seen.size).toBe(omens.length);
  });

  it('hashes the UTF-8 bytes, so composed and decomposed accents differ', () => {
    const composed = 'caf\u00e9';
    const decomposed = 'cafe\u0301';
    const digest = (text: string) =>
      createHash('sha256').update(Buffer.from(text, 'utf8')).digest().readUInt32BE(0);
    expect(drawOmen(composed)).toBe(omens[digest(composed) % omens.length]);
    expect(drawOmen(decomposed)).toBe(omens[digest(decomposed) % omens.length]);
  });

  it('is a parallel-safe tool that answers { omen } through the gate', async () => {
    const agent = new ToolGate(new ToolRegistry().register(oracleTool())).forAgent({
      name: 'fortune-teller',
      tools: ['oracle'],
    });
    const result = await agent.callTool('oracle', { seed: 'moss' });
    expect(result).toMatchObject({ isError: false, output: { omen: drawOmen('moss') } });
    expect(oracleTool().parallelSafe).toBe(true);
  });
});
