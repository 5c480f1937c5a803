/**
 * The generated library of bench/chat: manuals and manual_content chunks of technical text
 * (equipment, symptoms, components, error codes, part numbers, measurements), built inside
 * PostgreSQL with INSERT ... SELECT generate_series so a million chunks take minutes, not hours.
 * Every value is a hash of the row number, so every run seeds the same text. The questions
 * are drawn from the same vocabulary, and from the codes and part numbers really seeded.
 */
import type pg from 'pg';

export const EQUIPMENT = [
  'centrifugal pump',
  'rooftop unit',
  'air handler',
  'chiller',
  'cooling tower',
  'gas boiler',
  'heat pump',
  'walk-in freezer',
  'ice machine',
  'air compressor',
  'diesel generator',
  'water heater',
  'exhaust fan',
  'combi oven',
  'dishwasher',
  'espresso machine',
  'solar inverter',
  'UPS system',
  'elevator drive',
  'fire pump',
  'sump pump',
  'hydraulic lift',
  'condensing unit',
  'fan coil unit',
  'booster set',
  'steam boiler',
  'reverse osmosis unit',
  'blast chiller',
  'plate heat exchanger',
  'split air conditioner',
];
export const COMPONENTS = [
  'condenser fan motor',
  'expansion valve',
  'pressure switch',
  'float switch',
  'mechanical seal',
  'impeller',
  'motor bearing',
  'contactor',
  'run capacitor',
  'thermistor',
  'control board',
  'ignition electrode',
  'flame sensor',
  'drain pump',
  'solenoid valve',
  'inlet filter',
  'door gasket',
  'compressor',
  'crankcase heater',
  'defrost sensor',
  'flow switch',
  'pressure relief valve',
  'gearbox',
  'drive belt',
  'heating element',
  'water inlet valve',
  'level probe',
  'display board',
  'fuse',
  'circuit breaker',
  'evaporator coil',
  'condenser coil',
];
export const SYMPTOMS = [
  'will not start',
  'trips the breaker',
  'runs but does not cool',
  'makes a grinding noise',
  'vibrates excessively',
  'leaks water',
  'shows low pressure',
  'overheats',
  'short cycles',
  'loses prime',
  'has no ignition',
  'shows a communication fault',
  'ices up',
  'runs continuously',
  'smells of burning',
  'hums but does not turn',
];
const ACTIONS = [
  'Inspect',
  'Replace',
  'Clean',
  'Tighten',
  'Measure',
  'Check',
  'Reset',
  'Calibrate',
  'Lubricate',
  'Test',
  'Isolate',
  'Drain',
];
const FAULTS = [
  'is open circuit',
  'is short circuit',
  'is out of range',
  'has failed',
  'is blocked',
  'is worn',
  'is stuck closed',
  'is stuck open',
  'has lost communication',
  'reads too high',
  'reads too low',
  'is not calibrated',
];
const QUANTITIES = [
  ['resistance', 'ohm'],
  ['voltage', 'V'],
  ['current', 'A'],
  ['pressure', 'bar'],
  ['temperature', 'degC'],
  ['flow', 'l/min'],
];
export const CODE_LETTERS = ['E', 'F', 'A', 'H', 'L'];

const lit = (xs: string[]) => `ARRAY[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(',')}]`;

/** Model name and equipment of manual `m` (0-based), the same in SQL and here. */
export const modelOf = (m: number) => `${['XR', 'TX', 'KM', 'VB', 'QS', 'HZ'][m % 6]}-${100 + ((m * 7) % 900)}`;
export const equipmentOf = (m: number) => EQUIPMENT[m % EQUIPMENT.length]!;

/**
 * Inserts manuals [from, to) with `chunksPerManual` chunks each, two chunks per page. A pick
 * is `arr[1 + h(g, salt) % len]` with h a hash of the global chunk number g.
 */
export async function insertManuals(pool: pg.Pool, from: number, to: number, chunksPerManual: number) {
  await pool.query(
    `INSERT INTO manuals (id, title, file_url, file_name, file_size, document_type, technology, part_number, processing_status, page_count)
     SELECT 'manual_' || m, (${lit(['XR', 'TX', 'KM', 'VB', 'QS', 'HZ'])})[1 + m % 6] || '-' || (100 + (m * 7) % 900) || ' '
              || initcap((${lit(EQUIPMENT)})[1 + m % ${EQUIPMENT.length}]) || CASE WHEN m % 20 = 7 THEN ' System Planner' ELSE ' Service Manual' END,
            'http://127.0.0.1/files/' || md5(m::text) || '/manual_' || m || '.pdf', 'manual_' || m || '.pdf', 1000000 + m,
            CASE WHEN m % 20 = 7 THEN 'system_planner' ELSE 'manual' END, 'HVAC', 'PN-' || (1000 + m % 9000) || '-M', 'ready', $3::int / 2
     FROM generate_series($1::int, $2::int - 1) m`,
    [from, to, chunksPerManual],
  );
  const h = (salt: number) => `abs(hashint4(g * 31 + ${salt}))`;
  const pick = (arr: string[], salt: number) => `(${lit(arr)})[1 + ${h(salt)} % ${arr.length}]`;
  const q = QUANTITIES.map(([name]) => name!);
  const units = QUANTITIES.map(([, unit]) => unit!);
  await pool.query(
    // embedding '\x': generated text the background indexer leaves alone (embedding a million chunks would take days).
    `INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number, embedding)
     SELECT 'manual_' || m || '_' || c, 'manual_' || m,
       (${lit(['XR', 'TX', 'KM', 'VB', 'QS', 'HZ'])})[1 + m % 6] || '-' || (100 + (m * 7) % 900) || ' ' || upper((${lit(EQUIPMENT)})[1 + m % ${EQUIPMENT.length}])
       || ' SERVICE MANUAL, section ' || (c / 8 + 1) || '.' || (c % 8 + 1) || ', page ' || (c / 2 + 1) || '. '
       || 'If the ' || (${lit(EQUIPMENT)})[1 + m % ${EQUIPMENT.length}] || ' ' || ${pick(SYMPTOMS, 1)} || ', ' || lower(${pick(ACTIONS, 2)}) || ' the ' || ${pick(COMPONENTS, 3)} || ' first. '
       || 'Error code ' || ${pick(CODE_LETTERS, 4)} || (10 + ${h(5)} % 90) || ': the ' || ${pick(COMPONENTS, 6)} || ' ' || ${pick(FAULTS, 7)} || '. '
       || ${pick(ACTIONS, 8)} || ' the ' || ${pick(COMPONENTS, 9)} || ' and measure the ' || (${lit(q)})[1 + ${h(10)} % ${q.length}]
       || ' at terminals X' || (1 + ${h(11)} % 9) || ' and X' || (10 + ${h(12)} % 9) || '; the reading should be between ' || (${h(13)} % 50) || ' and ' || (50 + ${h(14)} % 200)
       || ' ' || (${lit(units)})[1 + ${h(10)} % ${units.length}] || '. '
       || 'Replacement ' || ${pick(COMPONENTS, 15)} || ': part number PN-' || (1000 + ${h(16)} % 9000) || '-' || chr(65 + ${h(17)} % 26) || '. '
       || 'Torque the fixing screws to ' || (2 + ${h(18)} % 60) || ' Nm and ' || lower(${pick(ACTIONS, 19)}) || ' the ' || ${pick(COMPONENTS, 20)} || ' before restarting. '
       || 'WARNING: isolate the electrical supply and lock out the unit before removing any cover. Only qualified personnel may service this equipment.',
       c, c / 2 + 1, '\\x'::bytea
     FROM generate_series($1::int, $2::int - 1) m CROSS JOIN generate_series(0, $3::int - 1) c CROSS JOIN LATERAL (SELECT m * $3::int + c AS g) gg`,
    [from, to, chunksPerManual],
  );
}

/** Seeds `manuals` x `chunksPerManual` chunks over two connections, with the GIN index built once at the end. */
export async function seedLibrary(
  pool: pg.Pool,
  opts: { manuals: number; chunksPerManual: number; log: (message: string) => void },
) {
  const batch = Math.max(1, Math.floor(20_000 / opts.chunksPerManual));
  // One index build over the finished table is faster than a million index insertions.
  await pool.query('DROP INDEX manual_content_search');
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < opts.manuals) {
      const from = next;
      const to = Math.min(opts.manuals, from + batch);
      next = to;
      await insertManuals(pool, from, to, opts.chunksPerManual);
      const before = done;
      done += to - from;
      if (Math.floor((done * 10) / opts.manuals) !== Math.floor((before * 10) / opts.manuals))
        opts.log(`  ${done} of ${opts.manuals} manuals`);
    }
  };
  await Promise.all([worker(), worker()]);
  const client = await pool.connect();
  try {
    await client.query("SET maintenance_work_mem = '512MB'");
    await client.query('CREATE INDEX manual_content_search ON manual_content USING gin (search)');
  } finally {
    client.release();
  }
  // The rows are already searchable: the ingestion worker has nothing to do for them.
  await pool.query("UPDATE ingestion_jobs SET status = 'done'");
  await pool.query('VACUUM ANALYZE manuals');
  await pool.query('VACUUM ANALYZE manual_content');
  await pool.query('VACUUM ANALYZE ingestion_jobs');
}

/**
 * Questions a technician would ask, built from chunks sampled from the seeded library, so the
 * codes, part numbers, models and symptoms in them exist; six shapes, from a bare part number
 * to a rambling paragraph.
 */
export async function sampleQuestions(pool: pg.Pool, count: number): Promise<string[]> {
  const {
    rows: [stats],
  } = await pool.query<{ n: number }>("SELECT reltuples::float8 AS n FROM pg_class WHERE relname = 'manual_content'");
  const percent = Math.min(100, (300 * count) / Math.max(1, stats!.n)); // about 3x what is needed, spread over the table
  const { rows } = await pool.query<{ text: string }>(
    `SELECT extracted_text AS text FROM manual_content TABLESAMPLE SYSTEM (${percent.toFixed(4)}) REPEATABLE (42) ORDER BY md5(id) LIMIT $1`,
    [count],
  );
  return rows.map(({ text }, i) => {
    const model = /^(\S+)/.exec(text)?.[1] ?? 'XR-100';
    const equipment =
      /If the (.+?) (?:will|trips|runs|makes|vibrates|leaks|shows|overheats|short|loses|has|ices|smells|hums)/.exec(
        text,
      )?.[1] ?? 'unit';
    const symptom = SYMPTOMS.find((s) => text.includes(s)) ?? 'will not start';
    const code = /Error code ([A-Z]\d+)/.exec(text)?.[1] ?? 'E10';
    const part = /part number (PN-\d+-[A-Z])/.exec(text)?.[1] ?? 'PN-1000-A';
    const component = /Replacement (.+?):/.exec(text)?.[1] ?? 'control board';
    switch (i % 6) {
      case 0:
        return `What does error ${code} mean on the ${equipment}?`;
      case 1:
        return `I need part number ${part}`;
      case 2:
        return `The ${equipment} ${symptom}, what should I check first?`;
      case 3:
        return `${model} ${symptom}`;
      case 4:
        return `How do I replace the ${component} on a ${model} ${equipment}? It ${symptom} and shows ${code}.`;
      default:
        return (
          `Customer says the ${equipment} ${symptom} since this morning. I already checked the breaker and the supply voltage is fine. ` +
          `The display shows ${code}. What else should I test before I replace the ${component}?`
        );
    }
  });
}
