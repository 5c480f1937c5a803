import { describe, expect, it } from 'vitest';
import { canonical, findIdentifiers, repairValue } from './identifiers.js';

describe('findIdentifiers', () => {
  it('picks out the labelled model, serial, part and error, model first', () => {
    expect(findIdentifiers('NORDCOOL CHILLERS\nMODEL XR-200\nS/N 4471-0B2293\n400V 3PH 50Hz\nFAULT E4')).toEqual([
      { kind: 'model', value: 'XR-200' },
      { kind: 'serial', value: '4471-0B2293' },
      { kind: 'error', value: 'E4' },
    ]);
    expect(findIdentifiers('SPARE PART\nP/N PN-4471-B\nMECHANICAL SEAL KIT')).toEqual([
      { kind: 'part', value: 'PN-4471-B' },
    ]);
    expect(findIdentifiers('TYPE RTU 550\nALARM A-07')).toEqual([
      { kind: 'model', value: 'RTU 550' },
      { kind: 'error', value: 'A-07' },
    ]);
  });

  it('tolerates what OCR gets wrong in labels and values (O/0, I/1, l/1)', () => {
    expect(findIdentifiers('M0DEL: XR-2OO\nERR0R E4')).toEqual([
      { kind: 'model', value: 'XR-200' },
      { kind: 'error', value: 'E4' },
    ]);
    expect(findIdentifiers('P/N PN-447l-B')).toEqual([{ kind: 'part', value: 'PN-4471-B' }]);
  });

  it('finds unlabelled models and a display code alone on its line, each once', () => {
    expect(findIdentifiers('GB-90 COMBI\nF28')).toEqual([
      { kind: 'model', value: 'GB-90' },
      { kind: 'error', value: 'F28' },
    ]);
    expect(findIdentifiers('MODEL KX-4410\nKX-4410')).toEqual([{ kind: 'model', value: 'KX-4410' }]);
  });

  it("finds a chip's part number with its letter suffix or in mixed case, and no code in a word of letters", () => {
    expect(findIdentifiers('MCU: ATmega328P\nUSB: CH340G')).toEqual([
      { kind: 'model', value: 'ATMEGA328P' },
      { kind: 'model', value: 'CH340G' },
    ]);
    expect(findIdentifiers('avrdude: error: could not find USB device')).toEqual([]);
  });

  it('finds nothing in text without codes', () => {
    expect(findIdentifiers('WARNING HOT SURFACE\nDO NOT TOUCH')).toEqual([]);
    expect(findIdentifiers('')).toEqual([]);
  });
});

describe('repairValue and canonical', () => {
  it('repairs digit groups only, and compares the usual confusions as equal', () => {
    expect(repairValue('XR-2OO')).toBe('XR-200');
    expect(repairValue('GB9O')).toBe('GB90');
    expect(repairValue('PN-4471-B')).toBe('PN-4471-B');
    expect(canonical('XR-2OO')).toBe(canonical('xr 200'));
    expect(canonical('5B-1O')).toBe(canonical('SB-10'));
    expect(canonical('XR-200')).not.toBe(canonical('XR-300'));
  });
});
