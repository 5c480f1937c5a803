import { describe, expect, it } from 'vitest';
import { baseForms, loadWordNet, relatedWords } from './word-net.js';

describe('WordNet', () => {
  it("reads a word's base forms by WordNet's suffix rules", () => {
    expect(baseForms('wiped')).toEqual(['wiped', 'wipe', 'wip']);
    expect(baseForms('batteries')).toContain('battery');
    expect(baseForms('switches')).toContain('switch');
    expect(baseForms('run')).toEqual(['run']);
  });

  it("relates a word to its first sense's synonyms and its derived forms, one word each, under its base forms", async () => {
    const net = await loadWordNet();
    expect(relatedWords(net, 'change')).toEqual(expect.arrayContaining(['alter', 'modify']));
    expect(relatedWords(net, 'erased')).toEqual(expect.arrayContaining(['erasure', 'eraser']));
    expect(relatedWords(net, 'simulator')).toContain('simulate');
    // Multi-word lemmas ("wipe_out") and the word itself are left out; later senses too ("burn": "tan").
    const burn = relatedWords(net, 'burn');
    expect(burn.some((w) => w.includes('_') || w === 'burn' || w === 'tan')).toBe(false);
    expect(relatedWords(net, 'xyzzy')).toEqual([]);
  });
});
