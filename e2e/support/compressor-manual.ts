// The CX-10 compressor manual the answer tests seed: its page 12 holds what a composed answer shows
// (paragraphs, numbered steps, a fenced command with its line breaks) as PDF extraction stores it.
export const COMPRESSOR = { id: 'manual_cx10', title: 'CX-10 Compressor Service Manual', file: 'cx-10.pdf' };
export const COMMAND = ['service reset --alarm A12', '    --verbose   # prints each cleared entry'];

export const FILTER_PAGE = {
  page: 12,
  text: [
    'Replacing the intake filter',
    '',
    'The intake filter clogs after about 500 hours in a dusty plant room. A clogged filter starves the CX-10 of air, so it overheats and trips on alarm A12.',
    '',
    '1. Switch the unit off and lock out the supply.',
    '2. Unclip the filter cover and pull the old filter out.',
    '3. Push the new filter in until it clicks.',
    '',
    'Then reset the alarm log from the service console:',
    '',
    '```',
    ...COMMAND,
    '```',
  ].join('\n'),
};
