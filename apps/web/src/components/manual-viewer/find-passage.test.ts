import { describe, expect, it } from 'vitest';

import { findPassage, type PassageRange } from './find-passage';

/** The text each range covers, so a test reads as what a technician would see marked. */
const marked = (pieces: string[], ranges: PassageRange[]) =>
  ranges.map(({ item, start, end }) => pieces[item]!.slice(start, end));

describe('findPassage', () => {
  it('finds a quote split across text runs, with other spacing and case', () => {
    const pieces = [
      'Page 3: Fault codes',
      'Fault E7 means the condenser fan',
      ' ',
      'motor is locked out. Replace',
      'the fan capacitor.',
    ];
    const ranges = findPassage(pieces, 'fault E7 means the condenser fan motor is  locked out.');
    expect(marked(pieces, ranges)).toEqual(['Fault E7 means the condenser fan', 'motor is locked out.']);
    expect(ranges.map((r) => r.item)).toEqual([1, 3]);
  });

  it('sees through a word hyphenated at the end of a line, soft hyphens and ligatures', () => {
    const pieces = ['Check the compres-', 'sor oil level before the ﬁrst start.', 'Drain\u00adthe line.'];
    expect(marked(pieces, findPassage(pieces, 'Check the compressor oil level before the first start.'))).toEqual([
      'Check the compres',
      'sor oil level before the ﬁrst start.',
    ]);
    expect(marked(pieces, findPassage(pieces, 'Drain the line'))).toEqual(['Drain\u00adthe line']);
  });

  it('treats curly and straight quotes alike', () => {
    const pieces = ['Set the switch to \u201cSERVICE\u201d and don\u2019t bypass it.'];
    expect(marked(pieces, findPassage(pieces, 'Set the switch to "SERVICE" and don\'t bypass it.'))).toEqual(pieces);
  });

  it('marks the sentences of a shortened quote that are on the page, and nothing for one that is not', () => {
    const pieces = ['Reset the controller. Wait five minutes before restarting.', 'Then check the contactor.'];
    const ranges = findPassage(
      pieces,
      'Reset the controller … Then check the contactor. This sentence is on the next page.',
    );
    expect(marked(pieces, ranges)).toEqual(['Reset the controller', 'Then check the contactor.']);
    expect(findPassage(pieces, 'Nothing like this is written here.')).toEqual([]);
  });

  it('marks a whole-document text at the passage, and ignores an empty or too common quote', () => {
    const text = 'Chiller start-up guide\n\nOpen the isolation valves\nbefore starting the compressor.';
    expect(marked([text], findPassage([text], 'Open the isolation valves before starting the compressor.'))).toEqual([
      'Open the isolation valves\nbefore starting the compressor.',
    ]);
    expect(findPassage([text], '  \n ')).toEqual([]);
    expect(findPassage([text], 'guide. the. valves. x')).toEqual([]);
  });
});
