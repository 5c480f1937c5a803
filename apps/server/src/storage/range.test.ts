import { describe, expect, it } from 'vitest';
import { parseRange } from './range.js';

describe('parseRange', () => {
  it.each([
    ['bytes=0-9', 1000, { start: 0, end: 9 }],
    ['bytes=100-', 1000, { start: 100, end: 999 }],
    ['bytes=-10', 1000, { start: 990, end: 999 }],
    ['bytes=-5000', 1000, { start: 0, end: 999 }],
    ['bytes=990-5000', 1000, { start: 990, end: 999 }],
    ['bytes=999-999', 1000, { start: 999, end: 999 }],
    [' bytes = 1 - 2 ', 1000, { start: 1, end: 2 }],
  ])('%s of %i bytes is %j', (header, size, range) => {
    expect(parseRange(header, size)).toEqual(range);
  });

  it.each([
    ['bytes=1000-', 1000],
    ['bytes=5000-6000', 1000],
    ['bytes=-0', 1000],
    ['bytes=0-', 0],
    ['bytes=-10', 0],
  ])('%s of %i bytes is unsatisfiable', (header, size) => {
    expect(parseRange(header, size)).toBe('unsatisfiable');
  });

  it.each([undefined, '', 'bytes=', 'bytes=-', 'bytes=9-1', 'bytes=0-1,5-6', 'items=0-1', 'bytes=a-b', 'bytes=1.5-2'])(
    'ignores %j (the whole file is served)',
    (header) => {
      expect(parseRange(header, 1000)).toBeUndefined();
    },
  );
});
