import { describe, expect, it } from 'vitest';
import {
  aloneInFences,
  DOT_COMMAND,
  ENTRY_LINE,
  entryHead,
  isFence,
  OPTION,
  opensOptionEntry,
  runInEntryHead,
} from './option-entry.js';

describe('OPTION and DOT_COMMAND', () => {
  it('take an option or a dot command as printed, and no dash or dot before a digit or a space', () => {
    const option = new RegExp(`^${OPTION}$`);
    for (const token of ['-B', '-e', '--model-large', '-Wl', '--stack-auto', '-mstm8'])
      expect(option.test(token), token).toBe(true);
    for (const token of ['-1', '--', '- x', '-_a', 'x-y']) expect(option.test(token), token).toBe(false);
    const command = new RegExp(`^${DOT_COMMAND}$`);
    for (const token of ['.tran', '.ENDS', '.options', '.MEAS_2']) expect(command.test(token), token).toBe(true);
    for (const token of ['.5', '..', '.x-y']) expect(command.test(token), token).toBe(false);
  });
});

describe('ENTRY_LINE', () => {
  it('takes a line that begins with an option or a dot command, whatever follows it', () => {
    for (const line of [
      '-e Causes a chip erase',
      '--fsigned-char By default char is unsigned',
      '.tran tstep tstop',
      '-C',
      '.include: a file',
      '--std=c99',
      '-p<partno>',
    ])
      expect(ENTRY_LINE.test(line), line).toBe(true);
  });

  it('takes no line where the option runs on into other marks, nor a line of prose or a number', () => {
    for (const line of ['-Wl,-Map', 'Use -e to erase', '-5 V supply', '. . . . 25', '.5 mm'])
      expect(ENTRY_LINE.test(line), line).toBe(false);
  });
});

describe('entryHead', () => {
  it("takes an option's head alone on its line, with up to three arguments", () => {
    expect(entryHead('-U memtype:op:filename[:format]')).toBe('-U memtype:op:filename[:format]');
    expect(entryHead('  -c programmer-id  ')).toBe('-c programmer-id');
    expect(entryHead('-r FILE --rawfile=FILE')).toBe('-r FILE --rawfile=FILE');
  });

  it('takes the head run into a description that starts with a capital, one lower-case word at most', () => {
    expect(entryHead('--codeseg <Name> The name to be used for the code segment')).toBe('--codeseg <Name>');
    expect(entryHead('-p partno This option tells AVRDUDE what part is connected')).toBe('-p partno');
    expect(entryHead('-s, -u These options used to control the obsolete safemode')).toBe('-s, -u');
    expect(entryHead('-D Disable auto erase for flash.')).toBe('-D');
  });

  it('takes no option alone, no sentence that goes on in lower case, and no line that does not open with an option', () => {
    for (const line of [
      '-j8',
      '-e causes a chip erase when it is given',
      'Use -e to erase the chip',
      '.tran tstep tstop',
    ])
      expect(entryHead(line), line).toBe('');
    expect(opensOptionEntry('-i delay For bitbang-type programmers, delay ...')).toBe(true);
    expect(opensOptionEntry('-j8')).toBe(false);
  });
});

describe('runInEntryHead', () => {
  it('takes only a head run into its description, not one alone', () => {
    expect(runInEntryHead('-r FILE --rawfile=FILE Use rawfile as the file')).toBe('-r FILE --rawfile=FILE');
    expect(runInEntryHead('-p partno This option tells AVRDUDE what part is connected')).toBe('-p partno');
    expect(runInEntryHead('--prefix see table below')).toBe('');
    expect(runInEntryHead('-U memtype:op:filename[:format]')).toBe('');
    expect(entryHead('--prefix see table below')).toBe('--prefix see table below');
  });

  it('reads the sentence as it is, not trimmed', () => {
    expect(runInEntryHead(' -D Disable auto erase')).toBe('');
  });
});

describe('isFence and aloneInFences', () => {
  it('tells a fence, indented or with a language, and a line set alone between two', () => {
    expect([isFence('```'), isFence('  ```text'), isFence('a ```'), isFence(undefined)]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    const lines = [
      '-e Causes a chip erase',
      '```',
      '-C config-file',
      '```',
      'Use the config file.',
      '',
      '```',
      'avrdude -C x',
      'avrdude -C y',
      '```',
    ];
    expect(lines.map((_, at) => aloneInFences(lines, at))).toEqual([
      false,
      false,
      true,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
