import { describe, expect, it } from 'vitest';
import { isStorageKey, newStorageKey, pathProblem, splitExtension } from './paths.js';

describe('pathProblem', () => {
  it.each([
    'manuals/1700000000_pump.pdf',
    'chat-images/1700000000.png',
    'avatars/u1.png',
    'manuals/Pump manual (rev 2), final.pdf',
    'manuals/Überdruckventil_Ø12.pdf',
    'manuals/日本語マニュアル.pdf',
    'readme.txt',
    'a/b/c/d.txt',
  ])('accepts %j', (path) => {
    expect(pathProblem(path)).toBeUndefined();
  });

  it.each([
    ['', 'is required'],
    ['../escape.txt', "must not contain '.' or '..' segments"],
    ['chat-images/../../escape.txt', "must not contain '.' or '..' segments"],
    ['chat-images/./a.txt', "must not contain '.' or '..' segments"],
    ['chat-images/..%2F..%2Fescape.txt', 'must not contain %'],
    ['chat-images/%2e%2e/escape.txt', 'must not contain %'],
    ['/etc/passwd', 'must be relative (no leading /)'],
    ['chat-images\\..\\escape.txt', 'must not contain a backslash'],
    ['chat-images/a\u0000.txt', expect.stringMatching(/^may contain/)],
    ['chat-images/a\n.txt', expect.stringMatching(/^may contain/)],
    ['chat-images/a<b>.txt', expect.stringMatching(/^may contain/)],
    ['chat-images/C:a.txt', expect.stringMatching(/^may contain/)],
    ['chat-images/\u202egnp.exe', expect.stringMatching(/^may contain/)],
    ['chat-images//a.txt', 'must not contain empty segments'],
    ['chat-images/', 'must not contain empty segments'],
    ['chat-images/ a.txt', 'segments must not start or end with a space'],
    [`chat-images/${'a'.repeat(600)}.txt`, 'must be at most 512 characters'],
  ])('refuses %j: %s', (path, problem) => {
    expect(pathProblem(path)).toEqual(problem);
  });
});

describe('storage keys', () => {
  it('are 32 random hex digits and the name reduced to safe ASCII', () => {
    const key = newStorageKey('Überdruck ventil (rev 2).pdf');
    expect(key).toMatch(/^[0-9a-f]{32}\/Uberdruck_ventil_rev_2_\.pdf$/);
    expect(isStorageKey(key)).toBe(true);
    expect(newStorageKey('Überdruck ventil (rev 2).pdf')).not.toBe(key);
  });

  it.each(['..', '.', '.hidden', '日本語', '%2e%2e', ''])('make a safe name of %j', (name) => {
    const key = newStorageKey(name);
    expect(isStorageKey(key)).toBe(true);
    expect(key.split('/')[1]).not.toMatch(/^\./);
  });

  it.each([
    '../x',
    'abc/x.pdf',
    `${'a'.repeat(32)}/../x`,
    `${'a'.repeat(32)}/.x`,
    `${'a'.repeat(32)}/x/y`,
    `${'A'.repeat(32)}/x`,
  ])('refuses %j as a key', (key) => {
    expect(isStorageKey(key)).toBe(false);
  });
});

describe('splitExtension', () => {
  it.each([
    ['pump.pdf', { stem: 'pump', extension: 'pdf' }],
    ['archive.tar.gz', { stem: 'archive.tar', extension: 'gz' }],
    ['.env', { stem: '.env' }],
    ['notes', { stem: 'notes' }],
    ['report.final draft', { stem: 'report.final draft' }],
  ])('%s', (name, parts) => {
    expect(splitExtension(name)).toEqual(parts);
  });
});
