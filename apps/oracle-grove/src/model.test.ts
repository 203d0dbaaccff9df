import { describe, expect, it } from 'vitest';
import { OfflineModel } from './model.js';

describe('OfflineModel', () => {
  const model = new OfflineModel();

  it('answers the same request with the same text', async () => {
    const request = { agent: 'a', system: 'You are the grove.', prompt: 'RECENT EVENTS\n- dusk' };
    expect(await model.complete(request)).toBe(await model.complete({ ...request }));
  });

  it('changes its text when the prompt changes', async () => {
    const base = { agent: 'a', system: 'You are the grove.' };
    const texts = new Set(
      await Promise.all(
        Array.from({ length: 20 }, (_, n) =>
          model.complete({ ...base, prompt: `RECENT EVENTS\n- event ${n}` }),
        ),
      ),
    );
    expect(texts.size).toBeGreaterThan(10);
  });

  it('speaks the omen when the prompt carries one', async () => {
    const text = await model.complete({
      agent: 'fortune-teller',
      system: 'You read omens.',
      prompt: 'RECENT EVENTS\n- dusk\n\nThe oracle answered: Moss grows toward the question.\nSpeak.',
    });
    expect(text.startsWith('"Moss grows toward the question." ')).toBe(true);
  });
});
