import { temporaryFiles, writeViewerLedger } from '@toolgate/ledger/testing';
import { describe, expect, it } from 'vitest';
import { type CallView, outcomeOf, passes, Timeline } from './page/model.js';

const file = temporaryFiles();
const anything = { run: '', agent: '', tool: '', kind: '', outcome: '', search: '' };

async function calls() {
  const timeline = new Timeline();
  timeline.add(await writeViewerLedger(file('ledger.jsonl')));
  return { timeline, calls: timeline.rows.filter((row): row is CallView => row.type === 'call') };
}

describe('the page model', () => {
  it('groups each call into its tool.called, policy.decided and tool.returned records by run and call id', async () => {
    const { calls: all } = await calls();
    const first = all[0]!;
    expect([first.called?.kind, first.decided?.kind, first.returned?.kind]).toEqual([
      'tool.called',
      'policy.decided',
      'tool.returned',
    ]);
    expect(
      new Set(
        [first.called?.payload, first.decided?.payload, first.returned?.payload].map(
          (p) => (p as { callId: string }).callId,
        ),
      ),
    ).toEqual(new Set([first.callId]));
  });

  it('marks a call refused for want of a grant, denied by policy or an approver, approved, failed or ok', async () => {
    const { calls: all } = await calls();
    const outcome = (agent: string, tool: string, index = 0) =>
      outcomeOf(all.filter((call) => call.agent === agent && call.tool === tool)[index]!);
    expect(outcome('trespasser', 'oracle')).toBe('refused');
    expect(outcome('teller', 'forbidden')).toBe('refused');
    expect(outcome('teller', 'secret')).toBe('denied');
    expect(outcome('teller', 'brittle', 1)).toBe('denied'); // the approver said no
    expect(outcome('teller', 'brittle', 0)).toBe('failed'); // approved, and the tool broke
    expect(outcome('teller', 'oracle', 0)).toBe('ok');
    expect(outcomeOf({ ...all[0]!, returned: undefined } as CallView)).toBe('pending');
  });

  it('filters by agent, tool, outcome and a search over parameters and outputs', async () => {
    const { timeline } = await calls();
    const shown = (filters: Partial<typeof anything>) =>
      timeline.rows.filter((row) => passes(row, { ...anything, ...filters }));
    expect(shown({ agent: 'critic' }).every((row) => row.type === 'call' && row.agent === 'critic')).toBe(
      true,
    );
    expect(shown({ agent: 'critic' })).toHaveLength(2);
    expect(
      shown({ outcome: 'refused' })
        .map((row) => (row as CallView).tool)
        .sort(),
    ).toEqual(['forbidden', 'oracle']);
    expect(shown({ tool: 'brittle' })).toHaveLength(2);
    // "stone remembers moss" is only in outputs; "glass" only in parameters and an error.
    expect(shown({ search: 'STONE REMEMBERS' }).length).toBeGreaterThan(0);
    expect(shown({ search: 'nothing called glass' })).toHaveLength(1);
    expect(shown({ search: 'no such text anywhere' })).toHaveLength(0);
  });
});
