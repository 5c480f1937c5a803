import { describe, expect, it } from 'vitest';
import { metadataFromFileName, titleFromFileName } from './file-name.js';
import { detectDate, detectPartNumber, detectTechnology, detectTitle, extractManualMetadata } from './heuristics.js';

const ROOFTOP_MANUAL = `Carrier
WeatherMaker 48/50 Series Rooftop Unit
Installation, Operation and Maintenance Manual
Part No. 48-50-3SI
Publication date: March 2021

Safety considerations
Installing, starting up and servicing air-conditioning equipment can be hazardous.
The rooftop unit uses R-410A refrigerant. Check the thermostat wiring before start-up.`;

describe('manual metadata heuristics', () => {
  it('reads title, technology, date and part number from a cover page', () => {
    expect(extractManualMetadata({ text: ROOFTOP_MANUAL })).toEqual({
      title: 'WeatherMaker 48/50 Series Rooftop Unit Installation, Operation and Maintenance Manual',
      technology: 'HVAC',
      datePublished: 'March 2021',
      partNumber: '48-50-3SI',
    });
  });

  it('prefers a Title: line, and skips short and noise lines for the first substantial one', () => {
    expect(detectTitle('ACME\nTitle: Grundfos CR pumps service instructions\nfoo')).toBe(
      'Grundfos CR pumps service instructions',
    );
    expect(detectTitle('ABB\nPage 1\nACS880-01 drives\nHardware manual\n3AUA0000078093 Rev G')).toBe(
      'ACS880-01 drives Hardware manual',
    );
    expect(detectTitle('12 34\n\n-')).toBe('Unknown');
    // A title page whose name is one word, its subtitle under it (avrdude's manual).
    expect(
      detectTitle('AVRDUDE\nA program for download/uploading AVR microcontroller flash and eeprom.\nFor AVRDUDE'),
    ).toBe('AVRDUDE');
    expect(detectTitle('SDCC\nSDCC Compiler User Guide\nSDCC 4.2.0')).toBe('SDCC Compiler User Guide');
  });

  it('names the trade mentioned most, from a small vocabulary', () => {
    expect(detectTechnology('Replace the pump impeller; check the centrifugal pump seal.')).toBe('Pumps');
    expect(detectTechnology('Boiler burner combustion settings')).toBe('Boilers');
    expect(detectTechnology('PLC ladder logic and I/O wiring')).toBe('PLC');
    expect(detectTechnology('Hydraulic cylinder and hydraulic hoses')).toBe('Hydraulics');
    expect(detectTechnology('Solar photovoltaic array string wiring')).toBe('Solar');
    expect(detectTechnology('Nothing technical here')).toBe('Unknown');
  });

  it.each([
    ['Published: 2021-03-15', '2021-03-15'],
    ['Issued 15 March 2021', '15 March 2021'],
    ['Printed March 15, 2021 in Germany', 'March 15, 2021'],
    ['Edition Mar. 2020', 'Mar. 2020'],
    ['Date: 03/2020', '03/2020'],
    ['Rev. 2019', '2019'],
    ['© Copyright 2018 ABB', '2018'],
    ['Uses R-410A only; 230 V', 'Unknown'],
  ])('date: %s → %s', (text, expected) => {
    expect(detectDate(text)).toBe(expected);
  });

  it.each([
    ['Order code PN-1234-A', 'PN-1234-A'],
    ['Part No. 3BHS123456.', '3BHS123456'],
    ['Model: XYZ-100', 'XYZ-100'],
    ['P/N: 12-345', '12-345'],
    ['Doc. No. 3AUA0000078093', '3AUA0000078093'],
    ['Part number: see label', 'Unknown'],
  ])('part number: %s → %s', (text, expected) => {
    expect(detectPartNumber(text)).toBe(expected);
  });

  it('parses PARTNUMBER_name file names (SPEC.md section 5)', () => {
    expect(metadataFromFileName('manuals/3BHS123456_ACS880_Hardware_Manual.pdf')).toEqual({
      partNumber: '3BHS123456',
      title: 'ACS880 Hardware Manual',
    });
    expect(metadataFromFileName('PN-1234-A_Centrifugal_pump.docx')).toEqual({
      partNumber: 'PN-1234-A',
      title: 'Centrifugal pump',
    });
    expect(metadataFromFileName('Pump_Service_Guide.pdf')).toEqual({ title: 'Unknown', partNumber: 'Unknown' });
    expect(titleFromFileName('Pump_Service_Guide.pdf')).toBe('Pump Service Guide');
  });

  it('gives Unknown for what the text does not say', () => {
    expect(extractManualMetadata({ text: '' })).toEqual({
      title: 'Unknown',
      technology: 'Unknown',
      datePublished: 'Unknown',
      partNumber: 'Unknown',
    });
  });
});
