import type { PhotoEffects, PhotoSpec } from '../../apps/server/src/data/ocr/test-support/render-photo.js';

/**
 * bench/ocr's test set: nameplates, part labels and error displays of the units whose manuals
 * the bench library holds (and a few it does not), each with the identifiers it carries and the
 * manual it should lead to. The texts follow real nameplates: maker, MODEL, S/N, electrical
 * rating, refrigerant; displays show a code and a word or two.
 */
export interface PhotoCase {
  name: string;
  spec: PhotoSpec;
  expected: { kind: 'model' | 'part' | 'serial' | 'error'; value: string }[];
  /** The title of the manual it should be identified as; null when the library has none for it. */
  manual: string | null;
}

export const BENCH_MANUALS = [
  {
    title: 'Chiller XR-200 Service Manual',
    text: 'XR-200 air-cooled chiller. Error E4: low evaporator water flow; clean the strainer. Error E7: high discharge pressure; clean the condenser coils.',
  },
  {
    title: 'GB-90 Gas Boiler Installation Guide',
    text: 'GB-90 condensing boiler. Fault F28: no ignition; check the gas valve and the electrode gap. Fault F22: low water pressure.',
  },
  {
    title: 'KX-4410 Ice Machine Service Guide',
    text: 'KX-4410 ice maker. Error E7: harvest too long; check the water inlet valve. Error E2: bin thermostat open.',
  },
  {
    title: 'RTU-550 Rooftop Unit Manual',
    text: 'RTU-550 packaged rooftop unit. Alarm A12: supply fan failure; check the belt. Alarm A07: high head pressure.',
  },
  {
    title: 'CP-200 Centrifugal Pump Service Manual',
    text: 'CP-200 pump. Seal kit part number PN-4471-B. Error E42: lost prime.',
  },
  {
    title: 'HPW-12 Heat Pump Water Heater Manual',
    text: 'HPW-12 heat pump water heater. Code H05: tank sensor open. Anode part number AN-3310.',
  },
  {
    title: 'DG-3000 Diesel Generator Operator Manual',
    text: 'DG-3000 generator set. Fault F31: low oil pressure. Fault F12: overspeed.',
  },
  {
    title: 'AC-7500 Air Compressor Manual',
    text: 'AC-7500 rotary screw compressor. Alarm A3: high discharge temperature. Air filter part number AF-7702.',
  },
] as const;

const plate = (maker: string, model: string, serial: string, rating: string, extra?: string) => [
  maker,
  `MODEL ${model}`,
  `S/N ${serial}`,
  rating,
  ...(extra ? [extra] : []),
];

const looks: PhotoEffects[] = [
  { rotate: 3, blur: 0.8, brightness: 0.9, noise: 12 },
  { rotate: -5, blur: 1.2, brightness: 0.55, noise: 25, glare: 0.4, quality: 70 },
  { shear: 0.12, blur: 1, brightness: 0.7, glare: 0.6 },
  { rotate: 7, blur: 1.5, brightness: 0.45, noise: 30, quality: 65 },
];

type Unit = {
  maker: string;
  model: string;
  serial: string;
  rating: string;
  code: string;
  codeLabel: string;
  part?: string;
  manual: string | null;
};
const units: Unit[] = [
  {
    maker: 'NORDCOOL CHILLERS',
    model: 'XR-200',
    serial: '4471-0B2293',
    rating: '400V 3PH 50Hz 32A',
    code: 'E4',
    codeLabel: 'ERROR',
    manual: BENCH_MANUALS[0].title,
  },
  {
    maker: 'THERMAX HEATING',
    model: 'GB-90',
    serial: '2231-7705',
    rating: '230V 50Hz 90W',
    code: 'F28',
    codeLabel: 'FAULT',
    manual: BENCH_MANUALS[1].title,
  },
  {
    maker: 'POLARIS ICE',
    model: 'KX-4410',
    serial: '88120-3341',
    rating: '230V 60Hz 9.8A',
    code: 'E7',
    codeLabel: 'ERROR',
    manual: BENCH_MANUALS[2].title,
  },
  {
    maker: 'SKYAIR HVAC',
    model: 'RTU-550',
    serial: '55-019283',
    rating: '460V 3PH 60Hz',
    code: 'A12',
    codeLabel: 'ALARM',
    manual: BENCH_MANUALS[3].title,
  },
  {
    maker: 'AQUAFLOW PUMPS',
    model: 'CP-200',
    serial: '200-77431',
    rating: '400V 3PH 7.5kW',
    code: 'E42',
    codeLabel: 'ERROR',
    part: 'PN-4471-B',
    manual: BENCH_MANUALS[4].title,
  },
  {
    maker: 'ECOHEAT',
    model: 'HPW-12',
    serial: '12H-004417',
    rating: '230V 50Hz 2.1kW',
    code: 'H05',
    codeLabel: 'CODE',
    part: 'AN-3310',
    manual: BENCH_MANUALS[5].title,
  },
  {
    maker: 'POWERGEN',
    model: 'DG-3000',
    serial: '3000-88231',
    rating: '400V 3PH 30kVA',
    code: 'F31',
    codeLabel: 'FAULT',
    manual: BENCH_MANUALS[6].title,
  },
  {
    maker: 'ATLAS AIR',
    model: 'AC-7500',
    serial: '7500-11902',
    rating: '400V 3PH 55kW',
    code: 'A3',
    codeLabel: 'ALARM',
    part: 'AF-7702',
    manual: BENCH_MANUALS[7].title,
  },
  {
    maker: 'FRIGOMAX',
    model: 'BF-160',
    serial: '160-55012',
    rating: '230V 50Hz 1.2kW',
    code: 'E9',
    codeLabel: 'ERROR',
    manual: null,
  },
];

/** Per unit: its nameplate twice (two looks), its error display, and its part label when it has one. */
export const PHOTO_CASES: PhotoCase[] = units.flatMap((unit, u) => {
  const cases: PhotoCase[] = [];
  for (const k of [0, 1]) {
    const look = looks[(u + k * 2) % looks.length]!;
    cases.push({
      name: `${unit.model.toLowerCase()}-plate-${k + 1}`,
      spec: { style: 'plate', lines: plate(unit.maker, unit.model, unit.serial, unit.rating), effects: look },
      expected: [
        { kind: 'model', value: unit.model },
        { kind: 'serial', value: unit.serial },
      ],
      manual: unit.manual,
    });
  }
  cases.push({
    name: `${unit.model.toLowerCase()}-display`,
    spec: {
      style: 'display',
      lines: [`${unit.model}`, `${unit.codeLabel} ${unit.code}`],
      effects: looks[(u + 1) % looks.length],
    },
    expected: [
      { kind: 'model', value: unit.model },
      { kind: 'error', value: unit.code },
    ],
    manual: unit.manual,
  });
  if (unit.part) {
    cases.push({
      name: `${unit.model.toLowerCase()}-label`,
      spec: {
        style: 'sticker',
        lines: ['GENUINE SPARE PART', `P/N ${unit.part}`, `FITS ${unit.model}`],
        effects: looks[(u + 3) % looks.length],
      },
      expected: [{ kind: 'part', value: unit.part }],
      manual: unit.manual,
    });
  }
  return cases;
});
