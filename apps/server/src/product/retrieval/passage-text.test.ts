import { describe, expect, it } from 'vitest';
import { questionTerms, type Terms, termScore } from './passage-text.js';

const TEXTS = [
  'Set the timestep with TSTEP; a time step too small stops the run.',
  'The bitclock is set with -B.',
  'Use -B 10 to slow the bit clock, see page 12.',
  'Nothing of the question here.',
  'Stopping the analysis: tstop sets when it stops.',
];

describe('termScore', () => {
  it('scores a text the same with terms used for many texts as with terms made for it alone', () => {
    const make = (): Terms => ({
      ...questionTerms('How do I stop at a smaller timestep with the bit clock -B, page 12?'),
      names: [['stop', 'tstop']],
      families: true,
    });
    // The words each text's words match are remembered per Terms object, from its second text on.
    const shared = make();
    const reused = [...TEXTS, ...TEXTS].map((text) => termScore(text, shared));
    const fresh = [...TEXTS, ...TEXTS].map((text) => termScore(text, make()));
    expect(reused).toEqual(fresh);
    // The words in any form, the pair written as one word ("bitclock"), the parameter name for a word, the codes.
    expect(fresh.slice(0, TEXTS.length)).toEqual([3, 5, 8, 0, 1]);
  });
});
