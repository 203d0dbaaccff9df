import { describe, expect, it } from 'vitest';
import { Approvals } from './approvals.js';

const approval = (server: string, remoteName: string) => ({
  server,
  remoteName,
  print: `sha256:${server}-${remoteName}`,
  shape: { description: remoteName, inputSchema: { type: 'object' } },
});

describe('Approvals', () => {
  it('keeps the approval of a name its server stopped listing, so the name stays that server’s', () => {
    const approvals = new Approvals(2);
    approvals.set('read', approval('a', 'read'));
    approvals.keepListed('a', new Set());
    expect(approvals.get('read')).toMatchObject({ server: 'a' });
  });

  it('forgets only the oldest unlisted names beyond the limit, so memory stays flat', () => {
    const approvals = new Approvals(2);
    for (let round = 0; round < 50; round++) {
      const listed = new Set<string>();
      for (let index = 0; index < 100; index++) {
        const name = `g${round}_${index}`;
        approvals.set(name, approval('gen', name));
        listed.add(name);
      }
      approvals.keepListed('gen', listed);
    }
    expect(approvals.size).toBe(102);
    expect(approvals.get('g49_0')).toBeDefined();
    expect(approvals.get('g0_0')).toBeUndefined();
  });

  it('moves an approval to the server it is approved for, and one server never evicts another’s', () => {
    const approvals = new Approvals(0);
    approvals.set('read', approval('a', 'read'));
    approvals.keepListed('b', new Set());
    expect(approvals.get('read')).toMatchObject({ server: 'a' });
    approvals.set('read', approval('b', 'read'));
    approvals.keepListed('a', new Set());
    expect(approvals.get('read')).toMatchObject({ server: 'b' });
    approvals.keepListed('b', new Set());
    expect(approvals.get('read')).toBeUndefined();
  });
});
