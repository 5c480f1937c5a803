// The answer composed without an AI model, from passages as extraction stores them.
import { describe, expect, it } from 'vitest';
import { askedValue } from './asked-value.js';
import { composeAnswer, escapeMarkdown, LOCAL_ANSWER_NOTE } from './compose.js';
import type { Passage } from '../retrieval/retrieve.js';

const passage = (text: string, over: Partial<Passage> = {}): Passage => ({
  chunkId: 'c1',
  manualId: 'manual_cx',
  title: 'CX-10 Compressor Service Manual',
  page: 12,
  fileUrl: 'https://files.test/cx.pdf',
  text,
  heading: '',
  score: 1,
  ...over,
});

const filterPage = [
  'Replacing the intake filter',
  '',
  'The intake filter clogs after about 500 hours in a dusty plant room. A clogged filter starves the CX-10 of air, so it overheats and trips on alarm A12. Order filter F-220 from your distributor.',
  '',
  '1. Switch the unit off and lock out the supply.',
  '2. Unclip the filter cover and pull the old filter out.',
  '3. Push the new filter in until it clicks.',
  '',
  'Then reset the alarm log from the service console:',
  '',
  '```',
  'service reset --alarm A12',
  '    --verbose   # prints each cleared entry',
  '```',
].join('\n');

describe('composeAnswer', () => {
  it('leads with the sentences that carry the question, then the steps in order, then the command exactly as printed', () => {
    const { text, sources } = composeAnswer('CX-10 trips on alarm A12, what do I do?', [passage(filterPage)]);
    expect(text).toBe(
      [
        'A clogged filter starves the CX-10 of air, so it overheats and trips on alarm A12. Order filter F-220 from your distributor.\\',
        '*CX-10 Compressor Service Manual, page 12* [1]',
        '',
        '1. Switch the unit off and lock out the supply.',
        '2. Unclip the filter cover and pull the old filter out.',
        '3. Push the new filter in until it clicks.',
        '',
        '```',
        'service reset --alarm A12',
        '    --verbose   # prints each cleared entry',
        '```',
        '',
        LOCAL_ANSWER_NOTE,
      ].join('\n'),
    );
    expect(sources).toEqual([
      {
        manualId: 'manual_cx',
        title: 'CX-10 Compressor Service Manual',
        page: 12,
        fileUrl: 'https://files.test/cx.pdf',
        quote: 'A clogged filter starves the CX-10 of air, so it overheats and trips on alarm A12.',
      },
    ]);
  });

  it('answers an identifier with the sentence that names it', () => {
    const { text } = composeAnswer('part number of the filter F-220?', [passage(filterPage)]);
    expect(text.startsWith('Order filter F-220 from your distributor.')).toBe(true);
  });

  it('shows at most two further pages that carry the question, shorter, each under its manual and page, and lists only pages shown', () => {
    const others = [
      passage('Alarm A12 can also follow a blocked condenser fan. Check the fan turns freely.', {
        chunkId: 'c2',
        page: 30,
      }),
      passage('Alarm A12 resets by itself after ten minutes when the air flow is back.', { chunkId: 'c3', page: 31 }),
      passage('Alarm A12 history is kept for ninety days in the log.', { chunkId: 'c4', page: 32 }),
      passage('Mounting brackets and torque values for the frame.', {
        chunkId: 'c5',
        manualId: 'manual_frame',
        title: 'Frame Guide',
        page: 2,
      }),
      passage('The intake filter clogs after about 500 hours.', { chunkId: 'c6', page: 12 }), // the page already shown
    ];
    const { text, sources } = composeAnswer('alarm A12 on the CX-10', [passage(filterPage), ...others]);
    expect(sources.map((s) => s.page)).toEqual([12, 30, 31]);
    expect(text).toContain(
      '**Also in your manuals**\n\n**CX-10 Compressor Service Manual, page 30** [2]\\\nAlarm A12 can also follow a blocked condenser fan.',
    );
    expect(text).toContain('**CX-10 Compressor Service Manual, page 31** [3]\\\nAlarm A12 resets by itself');
    expect(text).not.toMatch(/ninety days|Mounting brackets/);
    expect(sources[1]!.quote).toBe('Alarm A12 can also follow a blocked condenser fan.');
  });

  it('excerpts a further page found by several chunks from the chunk that carries the most of the question', () => {
    const { text, sources } = composeAnswer('alarm A12 on the CX-10 after a purge, clear the purge valve?', [
      passage(filterPage),
      passage('The CX-10 frame carries the purge valve bracket.', { chunkId: 'c2', page: 40 }),
      passage('After a purge, alarm A12 clears once the purge valve is closed by hand.', { chunkId: 'c3', page: 40 }),
    ]);
    expect(sources.map((s) => s.page)).toEqual([12, 40]);
    expect(text).toContain('page 40** [2]\\\nAfter a purge, alarm A12 clears once the purge valve is closed by hand.');
    expect(text).not.toContain('frame carries');
  });

  it('puts first the further page that carries as much of the question but clearly more of its rarer words', () => {
    const { sources } = composeAnswer('how do I silence the alarm buzzer?', [
      passage(filterPage),
      passage('The buzzer sounds at every alarm.', { chunkId: 'c2', page: 30 }),
      passage('To silence the buzzer, set buzzer=off. The door opens with a key. The panel lights up green.', {
        chunkId: 'c3',
        page: 31,
      }),
    ]);
    expect(sources.map((s) => s.page)).toEqual([12, 31, 30]);
  });

  it('keeps a long procedure short: eight steps, then how many more are on the page', () => {
    const steps = Array.from({ length: 11 }, (_, i) => `${i + 1}. Step number ${i + 1} of the purge.`).join('\n');
    const { text } = composeAnswer('how do I purge the line', [passage(`Purging the line.\n\n${steps}`)]);
    expect(text).toContain('8. Step number 8 of the purge.\n\n_3 more steps on the page._');
    expect(text).not.toContain('Step number 9');
  });

  it('shows text from a manual as printed, never as markdown or HTML', () => {
    const hostile = 'Alarm A12: see [the portal](javascript:alert(1)) and <img src=x onerror=alert(1)> *now*.';
    const { text } = composeAnswer('alarm A12', [passage(hostile)]);
    expect(text.split('\n')[0]).toBe(`${escapeMarkdown(hostile)}\\`);
    expect(text).toContain('\\[the portal\\](javascript:alert(1)) and \\<img src=x onerror=alert(1)> \\*now\\*');
  });

  it('leaves what markdown would not misread as typed: names with underscores, options with dashes', () => {
    expect(escapeMarkdown('--stack-auto makes srec_cat and SDCC_INCLUDE work; a < b')).toBe(
      '--stack-auto makes srec_cat and SDCC_INCLUDE work; a < b',
    );
    expect(escapeMarkdown('- not a list, _not emphasis_, &amp; not an entity')).toBe(
      '\\- not a list, \\_not emphasis\\_, \\&amp; not an entity',
    );
  });

  it("answers a troubleshooting entry with its solution, and a table question with the table's rows", () => {
    const faq = [
      'Appendix B: Troubleshooting 56',
      '',
      '• Problem: after flashing a firmware that lowers the clock, ISP fails. Or a programmer cannot initialize communication with a brand new chip.',
      'Solution: The target still runs at its internal clock speed. Therefore, the ISP clock must be reduced using the -B option.',
    ].join('\n');
    const { text } = composeAnswer('brand new chip, programmer cannot initialise communication', [passage(faq)]);
    expect(
      text.startsWith(
        'Or a programmer cannot initialize communication with a brand new chip.\\\nSolution: The target still runs at its internal clock speed. Therefore, the ISP clock must be reduced using the -B option.\\\n',
      ),
    ).toBe(true);

    // The question matches a sentence inside the solution: the solution is given from its start.
    const inside = [
      '• Problem: after flashing a firmware that lowers the clock, ISP fails.',
      'Solution: Even though ISP pulls /RESET low, the target runs at its internal clock speed. Therefore, the ISP clock must be reduced using the -B option.',
      'As that slows down the session, it might make sense to issue a chip erase using the slow clock (option -e) first.',
    ].join('\n');
    expect(composeAnswer("chip doesn't respond after I changed the clock fuse", [passage(inside)]).text).toMatch(
      /^Solution: Even though ISP pulls \/RESET low, .* using the -B option\. As that slows down the session, .*\(option -e\) first\.\\\n/,
    );

    const vectors =
      'Interrupt numbers of the 8051:\nInterrupt # Description Vector Address\n0 External 0 0x0003\n1 Timer 0 0x000b\n3 Timer 1 0x001b\n4 Serial 0x0023';
    const table = composeAnswer('8051 timer 1 vector address', [passage(vectors)]).text;
    expect(table).toBe(
      `Interrupt numbers of the 8051:\n\n- Interrupt # Description Vector Address\n- 0 External 0 0x0003\n- 1 Timer 0 0x000b\n- 3 Timer 1 0x001b\n- 4 Serial 0x0023\n\n*${passage('').title}, page 12* [1]\n\n${LOCAL_ANSWER_NOTE}`,
    );
  });

  it('shows a command printed in the body font as code, and leaves a wrapped line of prose as prose', () => {
    const page = [
      'If SDCC does not build, start from scratch and keep the output of each step. Configure it like:',
      './configure 2>&1 | tee configure.log',
      'and build it like:',
      'make 2>&1 | tee make.log',
      'The ISP clock must be reduced',
      'using the -B option before the',
      'initialization succeeds.',
    ].join('\n');
    const { text } = composeAnswer('how do I keep the output of configure and make', [passage(page)]);
    expect(text).toContain('```\n./configure 2>&1 | tee configure.log\n```');
    expect(text).not.toMatch(/```\nusing the -B/);
  });

  it('names the option a description is printed under, in code, and does not repeat it as a block', () => {
    const page = [
      'Options',
      '',
      '```',
      '--acall-ajmp',
      '```',
      '',
      'Replaces lcall/ljmp with acall/ajmp. You may need to use this option for some 8051 derivatives which lack the lcall/ljmp instructions.',
      '',
      '```',
      '--no-peep',
      '```',
      '',
      'Disables the peephole optimizer.',
      '',
      '--xstack Uses a pseudo stack in the first 256 bytes of external RAM for variables and parameters. Use this option when the internal stack overflows.',
    ].join('\n');
    const { text } = composeAnswer('my 8051 derivative has no lcall/ljmp instructions', [passage(page)]);
    expect(
      text.startsWith('`--acall-ajmp`: Replaces lcall/ljmp with acall/ajmp. You may need to use this option'),
    ).toBe(true);
    expect(text).not.toContain('```\n--acall-ajmp\n```');
    expect(text).not.toContain('--no-peep');
    // The option at the head of its paragraph, named for the sentence that points back at it.
    const stack = composeAnswer('internal stack overflows', [passage(page)]).text;
    expect(stack.startsWith('`--xstack`: Use this option when the internal stack overflows.')).toBe(true);
  });

  it('weighs a word of the question by how few sentences of the page carry it', () => {
    // "power", "VDMOS" and "model" are all over the page; only one sentence names the flag asked about.
    const page = [
      'The VDMOS power model is a simple power MOS model. The VDMOS power model has three terminals. The VDMOS power model needs no level. The VDMOS power model reads the datasheet values.',
      'The VDMOS model is invoked by its token. The VDMOS model has a thermal network. The VDMOS model has a subthreshold current. The VDMOS model has quasi-saturation. The VDMOS model has a body diode.',
      'P-channel devices are selected by the model flag PCHAN.',
    ].join('\n\n');
    const { text } = composeAnswer('power model VDMOS, which flag for p-channel', [passage(page)]);
    expect(text.indexOf('PCHAN')).toBeGreaterThanOrEqual(0);
    expect(text.indexOf('PCHAN')).toBeLessThan(text.indexOf('*CX-10'));
  });

  it("shows another manual's page ranked below the second only when it carries the question as well as the best page, and no drawing read as text", () => {
    const dryer = { manualId: 'manual_dryer', title: 'DX-2 Dryer Manual' };
    // Another machine's page that shares the alarm code.
    const sharesCode = passage('Alarm A12 on the DX-2 means the drum is overloaded.', {
      ...dryer,
      chunkId: 'c2',
      page: 4,
    });
    const { text, sources } = composeAnswer('The CX-10 trips on alarm A12, what do I do?', [
      passage(filterPage),
      // A cable drawing that extraction read as text, on a page of the same manual.
      passage('CX-10 A12 | .‘ |_________________ |___| -+- |___|', { chunkId: 'c3', page: 40 }),
      sharesCode,
      passage('When the CX-10 trips on alarm A12 with the DX-2 attached, check the dryer first.', {
        ...dryer,
        chunkId: 'c4',
        page: 9,
      }),
    ]);
    expect(sources.map((s) => s.page)).toEqual([12, 9]);
    expect(text).not.toMatch(/overloaded|\|___/);
    // Ranked second, the ranking hesitated between the two manuals: it is shown.
    const second = composeAnswer('The CX-10 trips on alarm A12, what do I do?', [passage(filterPage), sharesCode]);
    expect(second.sources.map((s) => s.page)).toEqual([12, 4]);
  });

  it('shows a further page that carries the question as well, whatever the length of the best page', () => {
    const other = passage(
      'Alarm A12 can also follow a blocked condenser fan. Check that the fan turns freely before you restart the CX-10.',
      { page: 30, chunkId: 'c2' },
    );
    const { text } = composeAnswer('The CX-10 trips on alarm A12, what do I do?', [passage(filterPage), other]);
    expect(text).toContain('**CX-10 Compressor Service Manual, page 30** [2]');
  });

  it('shows no further page that only names the section by its numbered heading', () => {
    const heading = passage(['3.2 Alarm A12 Examples', '', 'Reset the log, then restart:'].join('\n'), {
      page: 31,
      chunkId: 'c2',
    });
    const { text, sources } = composeAnswer('The CX-10 trips on alarm A12, what do I do?', [
      passage(filterPage),
      heading,
    ]);
    expect(text).not.toContain('3.2 Alarm A12 Examples');
    expect(sources.map((s) => s.page)).toEqual([12]);
  });

  it('shows an option list entry with its option as code, each entry the page runs into one paragraph on its own line', () => {
    const options = passage(
      '-i --interactive Run in interactive mode. This option is valid for the simulator only. -r FILE --rawfile=FILE Use rawfile as the default file into which the results are saved.',
    );
    const { text } = composeAnswer('save the results to a raw file in interactive mode', [options]);
    expect(text.split('\n\n')[0]).toBe(
      [
        '`-i --interactive` Run in interactive mode. This option is valid for the simulator only.\\',
        '`-r FILE --rawfile=FILE` Use rawfile as the default file into which the results are saved.\\',
        `*${options.title}, page 12* [1]`,
      ].join('\n'),
    );
    // Prose that mentions an option in passing ("When the -U option ...") and a description in lower case stay as printed.
    const prose = composeAnswer('erase before writing the flash', [
      passage('When the -U option is given, a chip erase runs before writing the flash. -x erase: runs it alone.'),
    ]).text;
    expect(
      prose.startsWith(
        'When the -U option is given, a chip erase runs before writing the flash. -x erase: runs it alone.',
      ),
    ).toBe(true);
  });

  it('leads with the entry of the option the question types, not with a page that mentions it', () => {
    const mention = passage('Use --model-large for the mcs51 port, since this uses a lot of memory.', { page: 58 });
    const entry = passage(
      [
        '--model-small Generate code for Small model programs. This is the default model.',
        '',
        '--model-large Generate code for Large model programs. All source files have to be compiled with this option.',
      ].join('\n'),
      { page: 38, chunkId: 'c2' },
    );
    const { text, sources } = composeAnswer('What does --model-large do?', [mention, entry]);
    expect(sources.map((s) => s.page)).toEqual([38, 58]);
    expect(text.startsWith('`--model-large` Generate code for Large model programs.')).toBe(true);
  });

  it('leads with the row of the part the question names, not with the entry of the option it types', () => {
    const rows = passage(['- m1284 ATmega1284', '- m1284p ATmega1284P', '- m128a ATmega128A'].join('\n'), { page: 10 });
    const entry = passage('-p partno This option tells AVRDUDE what part (MCU) is connected to the programmer.', {
      page: 9,
      chunkId: 'c2',
    });
    expect(composeAnswer("what's the -p id for an atmega1284p", [rows, entry]).sources[0]?.page).toBe(10);
    // Without the part, the entry leads as before.
    expect(composeAnswer('what does -p do', [rows, entry]).sources[0]?.page).toBe(9);
  });

  it('marks a further page cut where the page ends as going on', () => {
    const other = passage(
      'Alarm A12 can also follow a blocked condenser fan, which the controller reads from the fan sensor wired to terminal',
      { page: 30, chunkId: 'c2' },
    );
    const { text } = composeAnswer('The CX-10 trips on alarm A12, what do I do?', [passage(filterPage), other]);
    expect(text).toContain('from the fan sensor wired to terminal…');
  });

  it('reads ". . ." inside a sentence as part of it', () => {
    const page = [
      '• Problem: My ATxmega. . . A1/A2/A3 cannot be programmed through PDI with my AVR Dragon. Programming through a JTAG ICE mkII works though, as does programming through JTAG.',
      'Solution: None by this time (2010 Q1).',
    ].join('\n');
    const { text, sources } = composeAnswer('ATxmega A1 will not program through PDI with the AVR Dragon', [
      passage(page),
    ]);
    expect(sources[0]!.quote).toBe(
      'Problem: My ATxmega. . . A1/A2/A3 cannot be programmed through PDI with my AVR Dragon.',
    );
    expect(text).toContain('Solution: None by this time (2010 Q1).');
  });

  it('matches two words of the question the manual writes as one ("bit clock": "bitclock")', () => {
    const entry = (option: string, text: string) => `\`\`\`\n${option}\n\`\`\`\n\n${text}`;
    const page = [
      '4.1 AVRDUDE Defaults',
      entry(
        'default_serial = "default-serial-device";',
        'Assign the default serial port device. Can be overridden using the -P option.',
      ),
      entry(
        'default_programmer = "default-programmer-id";',
        'Assign the default programmer id. Can be overridden using the -c option.',
      ),
      entry(
        'default_bitclock = "default-bitclock";',
        'Assign the default bitclock value. Can be overridden using the -B option.',
      ),
    ].join('\n\n');
    const { text } = composeAnswer('sick of typing -B every time, can I set a default bit clock', [passage(page)]);
    expect(text.startsWith('**4.1 AVRDUDE Defaults**\\\nAssign the default bitclock value.')).toBe(true);
  });

  it('answers with the troubleshooting entry that matches best, whole and alone', () => {
    const page = [
      '• Problem: My ATtiny4/5/9/10 reads out fine, but any attempt to program it (through TPI) fails. Instead, the memory retains the old contents.',
      'Solution: Mind the limited programming supply voltage range of these devices.',
      'In-circuit programming through TPI is only guaranteed by the datasheet at Vcc = 5 V.',
      '• Problem: My ATxmega. . . A1/A2/A3 cannot be programmed through PDI with my AVR Dragon. Programming through a JTAG ICE mkII works though, as does programming through JTAG.',
      'Solution: None by this time (2010 Q1).',
      'It is said that the AVR Dragon can only program devices from the A4 Xmega subfamily.',
    ].join('\n');
    const { text } = composeAnswer("atxmega128a1 won't program via PDI on my dragon, jtag works fine", [passage(page)]);
    expect(text.slice(0, text.indexOf('*CX-10'))).toBe(
      'Problem: My ATxmega. . . A1/A2/A3 cannot be programmed through PDI with my AVR Dragon. Programming through a JTAG ICE mkII works though, as does programming through JTAG.\\\nSolution: None by this time (2010 Q1).\\\nIt is said that the AVR Dragon can only program devices from the A4 Xmega subfamily.\\\n',
    );
  });

  it('takes the sentence after the best one in its paragraph: the fix that follows the symptom', () => {
    const page = [
      '5.2 Atmel DFU bootloader using FLIP version 1',
      '',
      'When the bootloader is started, it enters a security mode where the only acceptable access is to query the device configuration parameters (which are used for the signature on AVR devices). The only way to leave this mode is a chip erase.',
      'Sometimes, a bootloader with security mode already disabled seems to no longer respond with sensible configuration data, but only 0xFF for all queries. As these queries are used to obtain the equivalent of a signature, AVRDUDE can only continue in that situation by forcing the signature check to be overridden with the -F option.',
      '',
      'One of the core AVRDUDE features is verification of the connection by reading device signature prior to any operation, but this operation is not possible on UPDI locked devices.',
    ].join('\n');
    const { text } = composeAnswer('flip bootloader gives 0xFF for the signature, avrdude refuses', [passage(page)]);
    expect(text.slice(0, text.indexOf('*CX-10'))).toContain('overridden with the -F option.');
  });

  it("names the option a sentence of its description is about, wherever the sentence sits in the option's paragraph", () => {
    const page = [
      'GMIN=x resets the value of GMIN, the minimum conductance allowed by the program. The default value is 1.0e-12.',
      '',
      'GMINSTEPS=x [*] sets the number of Gmin steps to be attempted. If the value is set to zero, the standard gmin stepping algorithm is skipped. The standard behavior is that gmin stepping is tried before going to the source stepping algorithm.',
      '',
      'ITL1=x resets the dc iteration limit. The default is 100.',
      '',
      'KEEPOPINFO Retain the operating point information when either an AC, Distortion, or Pole- Zero analysis is run. This is particularly useful if the circuit is large and you do not want to run a (redundant) .OP analysis.',
      '',
      'NOOPITER Go directly to gmin stepping, skipping the first iteration.',
    ].join('\n');
    const { text } = composeAnswer('skip gmin stepping and go to source stepping', [passage(page)]);
    expect(
      text.startsWith('`GMINSTEPS=x`: If the value is set to zero, the standard gmin stepping algorithm is skipped.'),
    ).toBe(true);
  });

  it('prefers a sentence that names an option to type', () => {
    const page = [
      '(Diodes, and BJTs), or the resulting temperature (Diodes) exceed limits that are specified by model parameters. All these parameters are positive with default value of infinity.',
      'The check is executed after Newton-Raphson iteration is finished i.e. in transient analysis in each time step. The user can specify an additional .option maxwarns (default: 5) to limit the count of messages.',
      'The output goes on default to stdout or alternatively to a file specified by command line option --soa-log=filename.',
      'To achive SOA checking, add some or all of these parameters with suitable limit values to the .model line of the respective device.',
      '',
      '15.5.1 Resistor and Capacitor SOA model parameters',
      '',
      '1. Bv_max: If |Vr| or |Vc| exceed Bv_max, SOA warning is issued.',
    ].join('\n');
    const { text } = composeAnswer('limit the number of SOA warnings per model', [passage(page)]);
    expect(text.slice(0, text.indexOf('*CX-10'))).toContain('.option maxwarns');
  });

  it('reads a table row with its column headers', () => {
    const page = [
      '3.8. INTERRUPT SERVICE ROUTINES CHAPTER 3. USING SDCC',
      '',
      'Interrupt # Description Vector Address',
      '0 External 0 0x0003',
      '1 Timer 0 0x000b',
      '3 Timer 1 0x001b',
      '4 Serial 0x0023',
      '',
      'Since the number of interrupts available is chip specific and the interrupt vector table always ends at the last byte of memory, the interrupt numbers corresponds to the interrupt vectors in reverse order of address. For example, interrupt 1 will use the interrupt vector at 0xfffc, interrupt 2 will use the interrupt vector at 0xfffa, and so on.',
    ].join('\n');
    const { text } = composeAnswer('8051 interrupt vector address for timer 1', [passage(page)]);
    expect(text).toContain('- 3 Timer 1 0x001b');
  });

  it('leads with the next passage when a sentence of it carries twice as much of the question', () => {
    const ranked = passage(
      'General form: RXXXXXXX n+ n- <resistance|r=>value. The resistor model consists of process-related device data. Resistors may be given a temperature coefficient.',
      { page: 101 },
    );
    const next = passage(
      'The ngspice matrix solver determines node voltages and currents through independent voltage sources. So to measure the currents through a resistor, you may add a voltage source in series with dc voltage 0.',
      { page: 334, chunkId: 'c2' },
    );
    const { text, sources } = composeAnswer('measure current through a resistor', [ranked, next]);
    expect(text.slice(0, text.indexOf('*CX-10'))).toContain('you may add a voltage source in series');
    expect(sources[0]!.page).toBe(334);
  });

  it('answers "how do I" with a page a little lower of the same manual that shows what to type, over one that says it can be done', () => {
    const says = passage('Reading the alarm log is fully supported on every CX-10 controller.', { page: 40 });
    const other = passage('The alarm log keeps the last 200 alarms with their time.', { page: 41, chunkId: 'c2' });
    const shows = passage(
      ['To read the alarm log, type at the service console:', '', '```', 'service log --alarms', '```'].join('\n'),
      { page: 18, chunkId: 'c3' },
    );
    const { text, sources } = composeAnswer('how do I read the alarm log', [says, other, shows]);
    expect(sources[0]!.page).toBe(18);
    expect(text.slice(0, text.indexOf('*CX-10'))).toContain('To read the alarm log, type at the service console:');
    expect(text).toContain('service log --alarms');
    // Not asked how: the ranking's order stands.
    expect(composeAnswer('is the alarm log read on every controller', [says, other, shows]).sources[0]!.page).toBe(40);
    // Another manual's page does not lead, nor a page below the first three.
    const elsewhere = { ...shows, manualId: 'manual_other', title: 'RX-4 Dryer Manual' };
    expect(composeAnswer('how do I read the alarm log', [says, other, elsewhere]).sources[0]!.page).toBe(40);
    const lower = passage('The log holds alarms.', { page: 42, chunkId: 'c4' });
    expect(composeAnswer('how do I read the alarm log', [says, other, lower, shows]).sources[0]!.page).toBe(40);
  });

  it('keeps the first page for "how do I" when it shows how by an option entry or a numbered step that carries the question', () => {
    const lower = passage(
      ['Purge settings of the service console:', '', '```', 'purge = <yes/no> ; # line purge', '```'].join('\n'),
      {
        page: 44,
        chunkId: 'c3',
      },
    );
    const other = passage('Spare parts are listed at the end.', { page: 41, chunkId: 'c2' });
    // An option printed above its description: what to type is the option.
    const entry = passage(
      [
        '```',
        '‘nopurge’',
        '```',
        '',
        'Newer firmware purges the line at every start. This option switches the purge off.',
      ].join('\n'),
      { page: 27 },
    );
    expect(composeAnswer('how do I switch off the line purge at start', [entry, other, lower]).sources[0]!.page).toBe(
      27,
    );
    // A numbered step that carries the question is what to do.
    const steps = passage(
      ['To keep the line clean:', '', '1. Purge the line at every start.', '2. Check the valve monthly.'].join('\n'),
      { page: 27 },
    );
    expect(composeAnswer('how do I keep the line purge short', [steps, other, lower]).sources[0]!.page).toBe(27);
    // A description that does not carry the question shows nothing: the lower page that shows what to type leads.
    const unrelated = passage(['```', '‘nopurge’', '```', '', 'Newer firmware cleans the valve.'].join('\n'), {
      page: 27,
    });
    expect(
      composeAnswer('how do I switch off the line purge at start', [unrelated, other, lower]).sources[0]!.page,
    ).toBe(44);
  });

  it('keeps the first page for "how do I" about an option the question types when it holds that option\'s entry', () => {
    const entry = passage(
      '--purge-time <Value> The purge time of the intake line in seconds. This is not implemented yet.',
      {
        page: 37,
      },
    );
    const other = passage('Spare parts are listed at the end.', { page: 41, chunkId: 'c2' });
    const lower = passage(
      ['Set the purge time of the intake line in the config file:', '', '```', 'purge_time = 30', '```'].join('\n'),
      {
        page: 42,
        chunkId: 'c3',
      },
    );
    const question = '--purge-time seems to do nothing, how do I set the purge time of the intake line';
    const { text, sources } = composeAnswer(question, [entry, other, lower]);
    expect(sources[0]!.page).toBe(37);
    expect(text).toContain('This is not implemented yet.');
    // Without the option typed, the lower page that shows what to type leads, as before.
    expect(
      composeAnswer('how do I set the purge time of the intake line', [entry, other, lower]).sources[0]!.page,
    ).toBe(42);
  });

  it('takes the sentence after the second chosen one too, when it carries the question', () => {
    const page = [
      '3.15.1.1 Small, Medium, Large and Huge',
      '',
      'SDCC allows four memory models for MCS51 code, small, medium, large and huge. Modules compiled with different memory models should never be combined together or the results would be unpredictable. The library routines supplied with the compiler are compiled for all models (however, the libraries for –stack-auto are compiled for the small and large models only).',
      'When the medium, large or huge model is used all variables declared without specifying an intrinsic named address space will be allocated into the external ram, this includes all parameters and local variables (for nonreentrant functions). Medium model uses pdata and large and huge models use xdata.',
      'Judicious usage of the processor specific intrinsic named address spaces and the ’reentrant’ function type will yield much more efficient code, than using the large model. Several optimizations are disabled when the program is compiled using the large model, it is therefore recommended that the small model be used unless absolutely required.',
    ].join('\n');
    const { text } = composeAnswer('mixed small and large model object files, program acts weird', [passage(page)]);
    expect(text.slice(0, text.indexOf('*CX-10'))).toContain('should never be combined together');
  });

  it("keeps the first entry of a list whose entries start in lower case, and drops a sentence cut at the page's top", () => {
    const formats = [
      'Chapter 2: Command Line Options 18',
      '',
      'm immediate mode; actual byte values specified on the command line, separated by commas or spaces in place of the filename field of the -U option. This is useful for programming fuse bytes without having to create a single-byte file or enter terminal mode.',
      '',
      'a auto detect; valid for input only, and only if the input is not provided at stdin.',
      '',
      'd decimal; this and the following formats are only valid on output.',
    ].join('\n');
    const { text } = composeAnswer('set the fuse bytes right on the command line without making a file', [
      passage(formats),
    ]);
    expect(text.slice(0, text.indexOf('*CX-10'))).toContain('m immediate mode; actual byte values');
    const cut = [
      'pulse on the reset line, so the fuse bytes can be set on the command line without a file.',
      '',
      'The fuse bytes are set with the -U option on the command line.',
    ].join('\n');
    expect(composeAnswer('set the fuse bytes on the command line without a file', [passage(cut)]).text).not.toContain(
      'pulse on the reset line',
    );
  });

  it("shows no table where there is none: the page's number on its own line, a heading over a short sentence", () => {
    const page = [
      '30',
      '',
      '3 Terminal Mode Operation',
      '',
      'AVRDUDE has an interactive mode called terminal mode that is enabled by the -t option.',
      'This mode allows one to enter interactive commands to display and modify the various device memories, perform a chip erase, display the device signature bytes and part parameters. Terminal mode also supports a command history so that previously entered commands can be recalled and edited.',
      '',
      '31',
    ].join('\n');
    const { text } = composeAnswer('terminal mode: show the eeprom contents', [passage(page)]);
    expect(text).toContain('enabled by the -t option');
    expect(text).not.toMatch(/^- /m);
    expect(text).not.toMatch(/\b3[01]\b/);
  });

  it('reads a listing the extractor fenced in pieces as one, and shows the parts of a long one that carry the question', () => {
    const page = [
      'Another issue you might notice is slow performance of EEPROM writing using SerialUPDI for AVR Dx devices. This can be addressed by changing avrdude.conf section for this device - changing EEPROM page size to 0x20 (instead of default 1), like so:',
      '',
      '```',
      '#------------------------------------------------------------',
      '# AVR128DB28',
      '#------------------------------------------------------------',
      '```',
      '',
      '```',
      'part parent ".avrdx"',
      '    id = "avr128db28";',
      '    desc = "AVR128DB28";',
      '    signature = 0x1E 0x97 0x0E;',
      '```',
      '',
      '```',
      'memory "flash"',
      '    size = 0x20000;',
      '    offset = 0x800000;',
      '    page_size = 0x200;',
      '    readsize = 0x100;',
      ';',
      '```',
      '',
      '```',
      '    memory "eeprom"',
      '        size = 0x200;',
      '        offset = 0x1400;',
      '        page_size = 0x1;',
      '        readsize = 0x100;',
      '    ;',
      ';',
      '```',
    ].join('\n');
    const { text } = composeAnswer('eeprom writes really slow with serialupdi on an avr128db28', [passage(page)]);
    expect(text.match(/^```$/gm)).toHaveLength(2);
    expect(text).toContain('        page_size = 0x1;');
    expect(text).not.toContain('memory "flash"');
    // The banner that only names the part in comments is no line to type.
    expect(text).not.toContain('# AVR128DB28');
    expect(text).toContain('    id = "avr128db28";');
  });

  it('reads a bulleted item on as one when extraction broke it onto a second line', () => {
    const page = [
      '6.1 Porting code from or to other compilers',
      '',
      '• check whether endianness of the compilers differs and adapt where needed.',
      '• check the device specific header files for compiler specific syntax. Eventually include the file <compiler.h> to allow using common header files. (see f.e. cc2510fx.h http://svn.',
      'code.sf.net/p/sdcc/code/trunk/sdcc/device/include/mcs51/cc2510fx.h).',
      '• check whether the startup code contains the correct initialization (watchdog, peripherals).',
      '• check whether the sizes of short, int, long match.',
    ].join('\n');
    const { text } = composeAnswer('which header file shows compiler specific syntax', [passage(page)]);
    expect(text).toContain(
      '(see f.e. cc2510fx.h http://svn. code.sf.net/p/sdcc/code/trunk/sdcc/device/include/mcs51/cc2510fx.h).',
    );
    expect(text).not.toMatch(/^- code\.sf\.net/m);
  });

  it("weighs a table's row in full, though it has no full stop like a heading, and reads no numbered headings as a table", () => {
    const ports = [
      'A.1.3 Unix Port Names',
      '',
      'The parallel and serial port device file names are system specific. MacOS has no default serial or parallel port names, but available ports can be found under /dev/cu.*. The following table lists the default names for a given system.',
      '',
      'System Default Parallel Port Default Serial Port',
      'FreeBSD /dev/ppi0 /dev/cuad0',
      'Linux /dev/parport0 /dev/ttyS0',
      'Solaris /dev/printers/0 /dev/term/a',
      '',
      'On FreeBSD systems, AVRDUDE uses the ppi(4) interface for accessing the parallel port and the sio(4) driver for serial port access.',
      'On Linux systems, AVRDUDE uses the ppdev interface for accessing the parallel port and the tty driver for serial port access.',
      'On Solaris systems, AVRDUDE uses the ecpp(7D) driver for accessing the parallel port and the asy(7D) driver for serial port access.',
    ].join('\n');
    expect(composeAnswer('default serial port avrdude uses on linux', [passage(ports)]).text).toContain(
      '- Linux /dev/parport0 /dev/ttyS0',
    );
    const models = [
      '3.15 Memory Models',
      '',
      '3.15.1 MCS51 Memory Models',
      '',
      '3.15.1.1 Small, Medium, Large and Huge',
      '',
      'SDCC allows four memory models for MCS51 code, small, medium, large and huge. Modules compiled with different memory models should never be combined together or the results would be unpredictable.',
    ].join('\n');
    const { text } = composeAnswer('mixed small and large model object files, program acts weird', [passage(models)]);
    expect(text).toContain('should never be combined together');
    expect(text).not.toMatch(/^- 3\.15/m);
  });

  it('never shows a contents or index page as a further page, also one whose entries extraction joined into one line', () => {
    const contents = passage(
      [
        'Contents',
        '4.1 Alarm A12 . . . . . . . . . 30',
        '4.2 Alarm A12 reset . . . . . . 31',
        '4.3 Alarm A13 . . . . . . . 32',
      ].join('\n'),
      { page: 2, chunkId: 'c2' },
    );
    const joined = passage(
      '4 Alarms 29 4.1 Alarm A12 . . . . . . . . . 30 4.2 Alarm A12 reset . . . . . . 31 4.3 Alarm A13 . . . . . . . 32',
      { page: 3, chunkId: 'c3' },
    );
    const index = passage(['Index', 'alarm A12, 30, 31', 'alarm A12 reset, 31', 'alarm log, 32–33'].join('\n'), {
      page: 90,
      chunkId: 'c4',
    });
    const other = passage('Alarm A12 can also follow a blocked condenser fan.', { page: 30, chunkId: 'c5' });
    const { sources } = composeAnswer('alarm A12 on the CX-10', [passage(filterPage), contents, joined, index, other]);
    expect(sources.map((s) => s.page)).toEqual([12, 30]);
  });

  it("keeps an option's default value with it", () => {
    const page = [
      'ABSTOL=x resets the absolute current error tolerance of the program. The default value is 1 pA.',
      '',
      'GMIN=x resets the value of GMIN, the minimum conductance allowed by the program. The default value is 1.0e-12.',
      '',
      'ITL1=x resets the dc iteration limit. The default is 100.',
    ].join('\n');
    // "The default value is 1 pA." carries no word of the question.
    const { text } = composeAnswer('what are abstol and gmin', [passage(page)]);
    expect(text.slice(0, text.indexOf('*CX-10'))).toContain(
      'ABSTOL=x resets the absolute current error tolerance of the program. The default value is 1 pA.',
    );
  });

  it('counts a sentence too long to show for less', () => {
    const page = [
      'Furthermore, warnings of less importance are disabled, too, namely: constant value out of range (81); shifting more than size of object changed to zero (116); unreachable code (126); integer overflow in expression (165); unmatched #pragma save and #pragma restore (170); comparison of signed char with unsigned char requires promotion to int (185); extended stack by bytes for compiler temps in function (114); function declarator with no prototype (211).',
      '',
      'Use #pragma nowarn to silence an unreachable code warning.',
    ].join('\n');
    const { text } = composeAnswer('unreachable code warning in a function, pragma', [passage(page)]);
    expect(text.startsWith('Use #pragma nowarn to silence an unreachable code warning.')).toBe(true);
    expect(text).not.toContain('Furthermore');
  });

  it("prefers the sentence naming the keyword made of the question's words", () => {
    const page = [
      'Furthermore, warnings of less importance are disabled, too, namely: constant value out of range (81); shifting more than size of object changed to zero (116); unreachable code (126); integer overflow in expression (165); unmatched #pragma save and #pragma restore (170); comparison of signed char with unsigned char requires promotion to int (185); extended stack by bytes for compiler temps in function (114); function declarator with no prototype (211); pointer to function size mismatch (88).',
      '',
      'noiv - Do not generate interrupt vector table entries for all ISR functions defined after the pragma.',
      '',
      'nooverlay - the compiler will not overlay the parameters and local variables of a function.',
      '',
      'stackauto - See option --stack-auto for the functions after the pragma.',
      '',
      'opt_code_speed - The compiler will optimize code generation towards fast code, possibly at the expense of code size.',
      '',
      'opt_code_size - The compiler will optimize code generation towards compact code, possibly at the expense of code speed.',
    ].join('\n');
    const { text } = composeAnswer('optimise a function for size only, pragma', [passage(page)]);
    const direct = text.slice(0, text.indexOf('*CX-10'));
    expect(direct).toContain('opt_code_size - The compiler will optimize code generation towards compact code');
    expect(direct).not.toContain('Furthermore');
  });

  it('reads an option list entry with the option printed above it, and shows no other entry', () => {
    const page = [
      'e.g., tool -p x/h prints the parts known.',
      '',
      '```',
      '-b baudrate',
      '```',
      '',
      'Override the RS-232 connection baud rate specified in the configuration file.',
      '',
      '```',
      '-B bitclock',
      '```',
      '',
      'Specify the bit clock period for the JTAG, PDI or ISP interface.',
    ].join('\n');
    const { text } = composeAnswer('What does -B bitclock do?', [passage(page)]);
    expect(text.startsWith('`-B bitclock`: Specify the bit clock period')).toBe(true);
    expect(text).not.toContain('Override');
  });

  it('prefers the sentence naming the parameter to set, and lets no sentence that comes along take its place', () => {
    const page = [
      '11.3 Power MOSFET model (VDMOS)',
      '',
      'The VDMOS model is a relatively simple power MOS model with 3 terminals drain, gate and source. Its current equations are partly based on a modified MOS1 model.',
      '',
      'The thermal network of the VDMOS model is shown in Fig. 11.1.',
      '',
      'It is invoked by the VDMOS token preceding the parameters on the .model line. P-channel or n-channel are selected by the model parameter PCHAN and NCHAN. If no flag is given, n-channel is the default.',
    ].join('\n');
    const { text } = composeAnswer('power mosfet model VDMOS, n or p channel flag', [passage(page)]);
    expect(text.slice(0, text.indexOf('*CX-10'))).toContain('selected by the model parameter PCHAN and NCHAN');
  });

  it('reads the first sentence of a section, when it carries the question, with its numbered heading', () => {
    const page = [
      'Have a look at the assembly listing to get a feeling for the code generation.',
      '',
      '6.1 Porting code from or to other compilers',
      '',
      '• check whether endianness of the compilers differs and adapt where needed.',
      '• check the device specific header files for compiler specific syntax. Eventually include the file <compiler.h> to allow using common header files.',
      '• check whether the startup code contains the correct initialization (watchdog, peripherals).',
      '• check whether the sizes of short, int, long match.',
      '• check if some 16 or 32 bit hardware registers require a specific addressing order (least significant or most significant byte first) and adapt if needed.',
      '• check the assembly code generated for interrupt routines (f.e. for calls to possibly non-reentrant library functions).',
    ].join('\n');
    const { text } = composeAnswer('porting code from keil, what should I check', [passage(page)]);
    expect(text.startsWith('check whether endianness of the compilers differs')).toBe(true);
    // Not so a sentence that says nothing of the question.
    const levels = [
      'The width effect on threshold voltage applies to MOS2 and MOS3. The coefficient for forward-bias depletion capacitance is 0.5. The bulk junction potential is 0.8 V.',
      '',
      '11.2.6 MOS Level 9',
      '',
      'Documentation is not available.',
      '',
      'BSIM3 and BSIM4 are industry standards for CMOS processes, supported by model parameter sets from foundries all over the world. All parameters of BSIM models are obtained from process characterization.',
    ].join('\n');
    expect(composeAnswer('which mosfet level is BSIM4', [passage(levels)]).text).not.toContain('Documentation');
  });

  it('shows a code block for a number of the question only when it carries a word of it too', () => {
    const page = [
      'To avoid the warning of a missing graphical user interface, you have to start the X11 window manager by issuing the commands',
      '',
      '```',
      '$ export DISPLAY=:0.0',
      '```',
      '',
      'inside of the window before starting the simulator.',
      '',
      '18.5 Error handling',
      '',
      'Error messages may occur with the token Error:. Sometimes the simulator will continue, deliver wrong results and exit with error code 0 (no error detected!).',
      '',
      'A first step is the user definable variable strict_errorhandling. This variable may be set to stop at once, after an error is detected.',
    ].join('\n');
    const { text } = composeAnswer('simulator ran but results look wrong, exit code 0? error handling', [
      passage(page),
    ]);
    expect(text).not.toContain('export DISPLAY');
    expect(text).toContain('exit with error code 0');
  });

  it('takes what helps against the symptom, a sentence or two after it in its paragraph', () => {
    const page = [
      '16.8 Memory usage',
      '',
      'Started in batch mode, the logger writes every sample straight to its file. In interactive mode the logger keeps all samples in memory, to be available for later review. A long run may outgrow even Gigabytes of memory. The same may happen after many runs without a restart. Issuing the keep <channels> command will help to reduce memory needs by keeping only the channels named.',
    ].join('\n');
    const { text } = composeAnswer('logger eats all my memory in interactive mode', [passage(page)]);
    const direct = text.slice(0, text.indexOf('*CX-10'));
    expect(direct).toContain('In interactive mode the logger keeps all samples in memory');
    expect(direct).toContain('Issuing the keep \\<channels> command will help to reduce memory needs');
    expect(direct).not.toContain('many runs without a restart');
  });

  it('drops a sentence that introduces rows the answer does not show, when it shows rows of another list', () => {
    const page = [
      '3.2.3 Projects with Multiple Source Files',
      '',
      'The tool can compile only ONE file at a time. Let us for example assume that you have a project containing the following files:',
      'foo1.c (contains some functions)',
      'foo2.c (contains some more functions)',
      'foomain.c (contains more functions and the function main)',
      'The first two files will need to be compiled separately with the commands:',
      'tool -c foo1.c',
      'tool -c foo2.c',
      'Then compile the source file containing the main() function and link the files together with the following command:',
      'tool foomain.c foo1.rel foo2.rel',
      'Alternatively, foomain.c can be separately compiled as well:',
      'tool -c foomain.c',
    ].join('\n');
    const { text } = composeAnswer('How do I link several source files?', [passage(page)]);
    expect(text).toContain('The tool can compile only ONE file at a time.\\\nThen compile the source file');
    expect(text).toContain('- tool foomain.c foo1.rel foo2.rel');
    expect(text).not.toContain('the following files:');
  });

  it("keeps to the best sentence's numbered section, not a weaker line of the section before that shares a word", () => {
    const page = [
      '• sourcefile.cdb - An optional file (with --debug) containing debug information.',
      '• sourcefile.omf - An optional AOMF file containing debug information (generated with option --debug).',
      '',
      '3.2.2 Postprocessing the Intel Hex file',
      '',
      'If your bootloader does not like this you can use the tool packihx:',
      'packihx sourcefile.ihx >sourcefile.hex',
      '',
      '3.2.3 Projects with Multiple Source Files',
      '',
      'The tool can compile only ONE file at a time. Let us for example assume that you have a project containing the following files:',
      'foo1.c (contains some functions)',
      'foo2.c (contains some more functions)',
      'foomain.c (contains more functions and the function main)',
      'Then compile the source file containing the main() function and link the files together with the following command:',
      'tool foomain.c foo1.rel foo2.rel',
    ].join('\n');
    const { text } = composeAnswer('How do I link several source files?', [passage(page)]);
    expect(
      text.startsWith(
        '**3.2.3 Projects with Multiple Source Files**\\\nThen compile the source file containing the main() function',
      ),
    ).toBe(true);
    expect(text).not.toContain('sourcefile');
  });

  it('introduces rows only with a line that introduces them, not with the sentence that happens to end before them', () => {
    const options = [
      '--quiet Disable some of the less important warnings. For more details, see the quiet keyword on page 60.',
      '--no-warning <nnnn> Disable the warning with number <nnnn>.',
      '--strict Treat all warnings as errors.',
      '--list-dirs Display the directories in the search path',
      '--codeseg <Name> The name to be used for the code segment, default CSEG. This is useful if you need to tell the compiler to put the code in a special segment so you can later on tell the linker where to put it.',
    ].join('\n');
    // With no line to introduce them, the row that answers leads.
    const rows = composeAnswer('switch off one warning by its number', [passage(options)]).text;
    expect(
      rows.startsWith(
        `\`--no-warning <nnnn>\` Disable the warning with number \\<nnnn>.\\\n*${passage('').title}, page 12* [1]\n\n- \`--no-warning <nnnn>\` Disable the warning`,
      ),
    ).toBe(true);
    expect(rows).not.toContain('For more details');

    const captioned = composeAnswer('switch off one warning by its number', [
      passage(options.replace('see the quiet keyword on page 60.', 'the switches are listed below:')),
    ]).text;
    expect(captioned.startsWith('`--quiet`: For more details, the switches are listed below:\n\n- `--no-warning')).toBe(
      true,
    );
  });

  it("shows a page's numbered list only when it or its lead-in carries the question (not only the manual's name, which shows no listing either) or it follows the answer", () => {
    const page = [
      'The solver converges when both of these hold:',
      '',
      '1. The branch currents converge to within 0.1 %.',
      '2. The node voltages converge to within 1 microvolt.',
      '',
      'The nominal temperature, at which the model parameters were measured, is called tnom. Its default is 27 degrees.',
    ].join('\n');
    const tnom = composeAnswer('tnom default, temperature the parameters were measured at', [passage(page)]).text;
    expect(tnom).toContain('is called tnom');
    expect(tnom).not.toContain('1. The branch currents');
    const converge = composeAnswer('when does the solver converge', [passage(page)]).text;
    expect(converge).toContain('1. The branch currents converge to within 0.1 %.\n2. The node voltages');

    // The manual's own name is on most of its pages: a list that carries only it answers nothing.
    const oil = [
      'Where the compressor is built:',
      '',
      '1. Compressors of this series are assembled in Italy.',
      '2. Each compressor leaves the plant with a spare belt.',
      '',
      'Check the oil level at the sight glass with the unit stopped. Top up with ISO 46 oil.',
    ].join('\n');
    expect(composeAnswer('compressor oil level check', [passage(oil)]).text).not.toContain('1. Compressors');
    // Nor does a listing.
    const version = ['The firmware version is printed by:', '', '```', 'compressor --version', '```', '', oil].join(
      '\n',
    );
    expect(composeAnswer('compressor oil level check', [passage(version)]).text).not.toContain('compressor --version');

    // A list whose lead-in line carries the question belongs to it, though the answer's sentences stand elsewhere.
    const report = [
      'A complete fault report holds:',
      '',
      '1. The serial number of the unit.',
      '2. The hours run since the last service.',
      '',
      'Spare parts, belts and filters are listed in chapter 9, with the order number of each and the interval at which it is replaced.',
      '',
      'For alarm A12 on the CX-10, send a fault report with the alarm log attached to your distributor.',
    ].join('\n');
    const sent = composeAnswer('what to send with a fault report for alarm A12 on the CX-10', [passage(report)]).text;
    expect(sent.startsWith('For alarm A12 on the CX-10, send a fault report')).toBe(true);
    expect(sent).toContain('1. The serial number of the unit.\n2. The hours run');
  });

  it('ends the direct answer with the sentence that leads into the steps, so the list follows it', () => {
    const page = [
      '9.1 Reporting a fault',
      '',
      'Faults are reported through the service portal. When reporting a fault please make sure you note:',
      '',
      '1. Note the alarm code shown on the display.',
      '2. Note the hours run.',
      '',
      'Engineers are frustrated by reports of a fault without the alarm code, so please note it when reporting one.',
    ].join('\n');
    const { text } = composeAnswer('what to note when reporting a fault', [passage(page)]);
    expect(
      text.startsWith(
        `Faults are reported through the service portal. When reporting a fault please make sure you note:\n\n1. Note the alarm code shown on the display.\n2. Note the hours run.\n\n*${passage('').title}, page 12* [1]`,
      ),
    ).toBe(true);
    expect(text).not.toContain('Engineers are frustrated');
  });

  it('shows the listing a chosen sentence introduces with a colon, not only the one after the last sentence', () => {
    const page = [
      'If the unit trips after a cold start, add the following line to the settings file:',
      '',
      '```',
      'purge_interval = 30',
      '```',
      '',
      'Usually a value of 30 is enough. In bad cases one can try 60.',
      '',
      'If the unit is noisy at night, a lower fan speed helps.',
      '',
      '```',
      'fan_speed = 2',
      '```',
    ].join('\n');
    const { text } = composeAnswer('unit trips after a cold start and is noisy at night', [passage(page)]);
    expect(text).toContain('the settings file:\\\nIf the unit is noisy at night');
    expect(text).toContain('```\npurge_interval = 30\n```\n\n```\nfan_speed = 2\n```');
  });

  it('shows a listing the page prints twice once', () => {
    // avrdude's page 28: the same parameter under two bootloaders, each introduced alike.
    const page = [
      '```',
      '‘serial_recv_timeout=1...’',
      '```',
      '',
      'This sets the serial receive timeout to the given value. The timeout happens every time avrdude waits for the BusPirate prompt. Especially in ascii mode this happens very often, so setting a smaller value can speed up programming a lot. The default value is 100ms.',
      'Using 10ms might work in most cases.',
      '',
      '```',
      'Micronucleus bootloader',
      '```',
      '',
      'When using the Micronucleus programmer type, the following optional extended parameter is accepted:',
      '',
      '```',
      '‘wait=timeout’',
      '```',
      '',
      'If the device is not connected, wait for the device to be plugged in.',
      'The optional timeout specifies the connection time-out in seconds.',
      'If no time-out is specified, AVRDUDE will wait indefinitely until the device is plugged in.',
      '',
      '```',
      'Teensy bootloader',
      '```',
      '',
      'When using the Teensy programmer type, the following optional extended parameter is accepted:',
      '',
      '```',
      '‘wait=timeout’',
      '```',
    ].join('\n');
    const { text } = composeAnswer(
      "urclock won't sync on a board with a big cap on reset, it's slow coming out of reset. can avrdude wait longer after resetting it?",
      [passage(page, { heading: '2.2 Programmers accepting extended parameters' })],
    );
    expect(text).toContain('```\n‘wait=timeout’\n```');
    expect(text.split('```\n‘wait=timeout’\n```').length - 1).toBe(1);
  });

  it('leaves out a sentence that introduces a table or listing the answer does not show', () => {
    const page = [
      'The A12 alarm trips when the intake is blocked. The pin mapping for the A12 sensor plug is:',
      'Pin Signal',
      '1 GND',
      '2 +5V',
      '3 OUT',
      'To clear the A12 alarm, remove the blockage from the intake and hold the RESET key on the panel for three seconds until the display goes dark.',
    ].join('\n');
    const { text } = composeAnswer('how do I clear the A12 alarm', [passage(page)]);
    expect(text.startsWith('The A12 alarm trips when the intake is blocked.\\\nTo clear the A12 alarm')).toBe(true);
    expect(text).not.toContain('pin mapping');
  });

  it("shows a compiler's reserved name with leading underscores as code, as typed", () => {
    expect(escapeMarkdown('The __asm__ format; old __asm ... __endasm; and _not emphasis_')).toBe(
      'The `__asm__` format; old `__asm` ... `__endasm`; and \\_not emphasis\\_',
    );
  });

  it('reads an option of the question as typed, dash and case included', () => {
    const options = passage(
      [
        '-R Restart the unit after the update.',
        '',
        '-r Resets the alarm log to its factory state, clearing every stored alarm and the hours run.',
      ].join('\n'),
      { page: 40 },
    );
    const other = passage('Exactly which parts wear first depends on the plant room.', { page: 7, chunkId: 'c2' });
    const { text, sources } = composeAnswer('what does -r wipe exactly', [options, other]);
    expect(text.startsWith('`-r` Resets the alarm log')).toBe(true);
    expect(sources[0]!.page).toBe(40);
  });

  it('counts the option the question types already as nothing new to type', () => {
    const page = [
      'Note for Windows users: if the path contains spaces, the unit keeps failing to write there until the whole path is surrounded by quotes, as the unit reads a space as the end of the path and the rest as another file.',
      '',
      '-o <path> The output path where the unit writes its logs, its alarm history and the hours run of each of its fans, compressors, heaters and valves, one file for each day, kept for ninety days, then packed into one file for each month.',
      'A path with slashes works too on every system the unit runs on, for example: -o "C:/unit logs/" or -o "/var/log/unit/", as long as the folder exists and the unit may write there, which the unit checks at start.',
    ].join('\n');
    const { text } = composeAnswer('log path on windows with spaces, -o keeps failing', [passage(page)]);
    expect(text.startsWith('Note for Windows users')).toBe(true);
  });

  it('reads a numbered heading that quotes an error in lower case as the heading of the text under it', () => {
    const page = [
      '7.4.2 Pressure switch',
      '',
      'The pressure switch opens at 9 bar.',
      '',
      '7.4.3 error: missing calibration for sensor “P2”',
      '',
      'Each sensor is read through a table. After replacing the sensor, load its table from the service console.',
    ].join('\n');
    const { text } = composeAnswer('error missing calibration for sensor P2', [passage(page)]);
    expect(text).toContain('load its table from the service console');
  });

  it('counts a footnote for less than the text it is marked in', () => {
    const page = [
      'To clear an A-series alarm, hold the RESET key for three seconds.',
      '',
      '3Latched alarms were introduced because an A-series alarm that cleared by itself hid the fault it had found, so that the fault was only seen again weeks later, when the compressor had run hot for days; an alarm of the A-series can still be cleared remotely from the service console, which logs who cleared it and when, which alarm it was, and how long it had been raised before.',
    ].join('\n');
    const { text } = composeAnswer('how do I clear an A-series alarm remotely', [passage(page)]);
    expect(text.startsWith('To clear an A-series alarm, hold the RESET key for three seconds.\\\n*CX-10')).toBe(true);
  });

  it("never leads with a footnote, nor with the line that goes on with it, nor with the page's running head", () => {
    // avrdude's -p page: the notes of the part table above the option list, as extraction prints them.
    const usage = [
      'Chapter 2: Command Line Options 12',
      'lgt8f328p LGT8F328P',
      'lgt8f88p LGT8F88P',
      '(*) The AT90S2323 and ATtiny22 use the same algorithm.',
      '(**) Flash addressing above 128 KB is not supported by all programming hardware. Known to work are jtag2, stk500v2, and bit-bang programmers.',
      '(***) The ATtiny11 can only be programmed in high-voltage serial mode.',
      '(****) The ISP programming protocol of the AT90S1200 differs in subtle ways from that of other AVRs. Thus, not all programmers support this device.',
      'Known to work are all direct bitbang programmers, and all programmers talking the STK500v2 protocol.',
      '',
      '```',
      '-c programmer-id',
      '```',
      '',
      'Specify the programmer to be used. AVRDUDE knows about several common programmers. Use this option to specify which one to use. The programmer-id parameter is the programmer’s id listed in the configuration file.',
    ].join('\n');
    const { text } = composeAnswer('how do I flash a hex file to an atmega328p with a usbasp programmer', [
      passage(usage),
    ]);
    expect(text.startsWith('`-c programmer-id`: ')).toBe(true);
    expect(text).not.toMatch(/\(\\\*|Known to work|Chapter 2/);
  });

  it('answers from a listing of examples: leads with its page, shows the lines that carry the question, introduced by its line', () => {
    const examples = passage(
      [
        'Other examples:',
        '',
        '```',
        ...Array.from({ length: 20 }, (_, i) => `.log temp${i} every ${i + 1}0s`),
        '.log alarm when pressure high',
        '+ every 1s',
        '.log fans when fan=off',
        '```',
        '',
        '9.2 Fan speed',
        '',
        'The fan runs at three speeds.',
      ].join('\n'),
      { page: 60 },
    );
    const general = passage('The .log card records the pressure or the temperature over time.', {
      page: 58,
      chunkId: 'c2',
    });
    const { text, sources } = composeAnswer('log an alarm on high pressure with .log', [examples, general]);
    expect(sources[0]!.page).toBe(60);
    expect(
      text.startsWith(
        'Other examples:\n\n```\n.log alarm when pressure high\n+ every 1s\n.log fans when fan=off\n```\n\n_20 more lines on the page._\n\n*CX-10 Compressor Service Manual, page 60* [1]',
      ),
    ).toBe(true);
  });

  it("shows no option printed above another entry's description, but one the text runs on from", () => {
    const options = [
      '```',
      '‘purge=<n>’',
      '```',
      '',
      'Sets the purge interval in minutes, longer in a dusty plant room.',
      '',
      '```',
      '‘fanspeed=<n>’',
      '```',
      '',
      'Sets the fan speed.',
    ].join('\n');
    const purge = composeAnswer('purge interval for a dusty plant room', [passage(options)]).text;
    expect(purge.startsWith('`‘purge=<n>’`: Sets the purge interval')).toBe(true);
    expect(purge).not.toContain('fanspeed');
    const runOn = [
      'If the unit trips on a cold start, a purge helps.',
      '',
      '```',
      '.option purge = 30',
      '```',
      '',
      'adds a purge cycle every 30 minutes.',
    ].join('\n');
    expect(composeAnswer('unit trips on a cold start', [passage(runOn)]).text).toContain(
      '```\n.option purge = 30\n```',
    );
  });

  it('names an option a texinfo list prints as a name alone in quotes, and shows no next entry', () => {
    const options = [
      '```',
      '‘showlog’',
      '```',
      '',
      'Show the alarm log and its capabilities, then exit.',
      '',
      '```',
      '‘showfan’',
      '```',
      '',
      'Show the fan speed, then exit.',
    ].join('\n');
    const { text } = composeAnswer('check the alarm log without resetting anything', [passage(options)]);
    expect(text.startsWith('`‘showlog’`: Show the alarm log and its capabilities')).toBe(true);
    expect(text).not.toContain('showfan');
  });

  it("names the command a numbered section's heading names, once", () => {
    const page = ['2.12 .PURGE', '', 'Sets how often the intake is cleared, in minutes.'].join('\n');
    expect(composeAnswer('how often is the intake cleared', [passage(page)]).text).toMatch(
      /^`\.PURGE`: Sets how often the intake is cleared/,
    );
    // The heading shown as a chosen sentence is not repeated as the subject.
    expect(composeAnswer('anything new on the compressor', [passage(page)]).text).toMatch(
      /^2\.12 \.PURGE\\\nSets how often/,
    );
  });

  it('reads a temperature typed with a unit symbol as the manual writes it', () => {
    const rated = passage('Rated for 85 cycles an hour.', { chunkId: 'c1', page: 12 });
    const temperature = passage('Sets the temperature of the whole board in degrees Celsius for the run.', {
      chunkId: 'c2',
      page: 30,
    });
    const { text, sources } = composeAnswer('run the whole board at 85 degC', [rated, temperature]);
    expect(sources[0]!.page).toBe(30);
    expect(text.startsWith('Sets the temperature of the whole board in degrees Celsius')).toBe(true);
  });

  it('composes a passage that starts in the middle of a sentence, right above a listing or steps', () => {
    const listing = [
      'for the units that support it.',
      '',
      '```',
      'service purge --now',
      '```',
      '',
      'Purges the intake.',
    ].join('\n');
    expect(composeAnswer('purge the intake', [passage(listing)]).text).toContain('service purge --now');
    const steps = ['for the units that support it.', '', '1. Open the intake cover.', '2. Purge the intake.'].join(
      '\n',
    );
    expect(composeAnswer('purge the intake', [passage(steps)]).text).toContain('2. Purge the intake.');
  });

  it('shows no listing of another troubleshooting entry with the entry that answers', () => {
    const page = [
      '• Problem: The CX-10 settings file is lost after a firmware update.',
      'Solution: Restore it from the backup with:',
      '```',
      'service restore --settings backup.cfg',
      '```',
      '• Problem: The CX-10 settings are lost after a power cut.',
      'Solution: Replace the backup battery B-3 behind the front panel.',
    ].join('\n');
    const { text } = composeAnswer('settings lost after a power cut', [passage(page)]);
    expect(text).toContain('Replace the backup battery B-3');
    expect(text).not.toContain('service restore');
  });

  it("reads a solution that carries the question with its own problem, not with the next entry's", () => {
    const page = [
      '• Problem: Updates from the service tool fail with the CX-10 remote.',
      'Solution: None at this time. Currently, the CX-10 remote cannot write to the flash ROM one byte at a time.',
      '• Problem: Page-mode writing of the settings memory from the console (using the -U option) does not erase its cells before writing, and thus cannot overwrite any previous value.',
      'Solution: None. This is how the remote writes the settings memory. A full erase is required first.',
    ].join('\n');
    const question = 'cx-10 remote: writing a byte into flash from the console does nothing, settings writes work fine';
    const { text } = composeAnswer(question, [passage(page)]);
    const lead = text.slice(0, text.indexOf('*CX-10'));
    expect(
      lead.startsWith('Solution: None at this time. Currently, the CX-10 remote cannot write to the flash ROM'),
    ).toBe(true);
    // The next entry's problem shares words of the question; its solution answers another one.
    expect(lead).not.toContain('A full erase is required first.');
  });

  it('shows a sentence the page prints twice once', () => {
    const page = [
      'T-1 controller: no read command.',
      'As the T-series controller cannot read back its flash memory, use the -V option to skip the verify step after an upload.',
      '',
      'T-2 controller: no read command.',
      'As the T-series controller cannot read back its flash memory, use the -V option to skip the verify step after an upload.',
    ].join('\n');
    const { text } = composeAnswer('verify step fails, the controller cannot read the flash', [passage(page)]);
    expect(text.split('use the -V option').length).toBe(2);
  });

  it('shows a table cell wrapped onto the next line as one row', () => {
    const page = [
      'The fan speed is set with the SPEED key:',
      '0 300 rpm',
      '1 600 rpm',
      '2 900 rpm (models',
      'from 2020 only)',
      '3 1200 rpm',
    ].join('\n');
    const { text } = composeAnswer('fan speed settings rpm', [passage(page)]);
    expect(text).toContain('- 2 900 rpm (models from 2020 only)\n- 3 1200 rpm');
  });

  it('marks a sentence cut where the page ends as going on', () => {
    const page = [
      'Alarm A12 has two causes, each with its own fix.',
      'When alarm A12 trips after a filter change, the new filter is most likely the wrong grade, and the unit then',
    ].join('\n');
    const { text } = composeAnswer('alarm A12 trips after a filter change', [passage(page)]);
    expect(text).toContain('and the unit then…\\\n');
  });

  it('names no other option for a sentence that starts with its own', () => {
    const page =
      'PURGE=x sets the purge interval of the intake filter in minutes. The default is 30. FANS=x sets the number of fans running.';
    const { text } = composeAnswer('number of fans running', [passage(page)]);
    expect(text.startsWith('FANS=x sets the number of fans running.')).toBe(true);
  });

  it('shows the listings that carry the most of the question', () => {
    const page = [
      'At start, a test runs.',
      '```',
      'service test --fan',
      '```',
      'Reading back.',
      '```',
      'service read --fan-speed',
      '```',
      'Changing it.',
      '```',
      'service set --fan-speed 3',
      '```',
    ].join('\n');
    const { text } = composeAnswer('set the fan speed', [passage(page)]);
    expect(text).toContain('service read --fan-speed');
    expect(text).toContain('service set --fan-speed 3');
    expect(text).not.toContain('service test --fan\n');
  });

  it('shows alone the listing the answer leads into when an earlier one on the page carries clearly less of the question', () => {
    const page = [
      'Connect to the unit whose serial number ends in 1C37 and open the service console:',
      '```',
      '% cxtool -c usb:1c:37 -t',
      'cxtool: ready',
      'cxtool: console closed',
      '```',
      'List the serial numbers of all CX-10 units on the USB bus. This is done by giving an invalid serial number and more output.',
      '```',
      '% cxtool -c usb:xx -v',
      'cxtool: found CX-10 unit, serial number 00A0001C6B',
      'cxtool: found CX-10 unit, serial number 00A0001C3A',
      'cxtool: no matching USB unit "usb:xx"',
      '```',
    ].join('\n');
    const { text } = composeAnswer('several CX-10 units on the usb hub, how do I find out their serial numbers', [
      passage(page),
    ]);
    expect(text).toContain('% cxtool -c usb:xx -v');
    expect(text.indexOf('% cxtool -c usb:xx -v')).toBeLessThan(400);
    // The earlier example is not shown, nor the sentence that would promise it.
    expect(text).not.toContain('usb:1c:37');
    expect(text).not.toContain('open the service console:');
    // Two listings that a sentence of the answer introduces as alternatives are both shown.
    const methods = [
      'The serial number of the CX-10 unit is set in one of two ways:',
      '```',
      'cxtool --serial-set 1C37',
      '```',
      'or, on older units, with the service console. Example for the CX-10 unit serial number:',
      '```',
      'console> serial number 1C37 unit CX-10',
      '```',
    ].join('\n');
    const both = composeAnswer('CX-10 unit: how do I set its serial number', [passage(methods)]).text;
    expect(both).toContain('cxtool --serial-set 1C37');
    expect(both).toContain('console> serial number 1C37 unit CX-10');
  });

  it("does not show a procedure of another numbered section of the page than the answer's", () => {
    const page = [
      '4.6.2 Adding new models',
      '',
      'Adding a new compressor model requires the following steps:',
      '',
      '1. Create a new model description with its configuration options.',
      '2. Copy the description into the controller and restart it.',
      '',
      '4.6.4 Configuration bits',
      '',
      'The config word of the CX-10 is set with the service console. Example for the CX-10:',
      '',
      '```',
      'service config --word 0x3F --watchdog off',
      '```',
    ].join('\n');
    const { text } = composeAnswer('CX-10: how do I set the config word, watchdog off', [passage(page)]);
    expect(text).toContain('service config --word 0x3F --watchdog off');
    expect(text).not.toContain('1. Create a new model description');
    // Under the answer's own section, the same list is shown.
    const own = page.replace('4.6.4 Configuration bits\n\n', '');
    expect(composeAnswer('CX-10: how do I set the config word, watchdog off', [passage(own)]).text).toContain(
      '1. Create a new model description',
    );
  });

  it('shows a sentence whole when the page broke its line inside brackets, not its end alone', () => {
    const page = [
      'Batch mode. If your service script contains a control section (.control ...',
      '.endc), do not start the compressor console in batch mode (with -b).',
      '',
      'The console reads its settings from cx.ini in its own folder, then from the user folder, and stops at the first file it finds there.',
    ].join('\n');
    const { text } = composeAnswer('can I start the compressor console in batch mode', [passage(page)]);
    expect(text).toContain(
      'If your service script contains a control section (.control ... .endc), do not start the compressor console in batch mode (with -b).',
    );
    expect(text).not.toMatch(/^\.endc\)/m);
  });

  it('reads a numbered heading named by a command ("4.3.9 .TF: Transfer Function Analysis") as a section\'s start, not as a table row', () => {
    const page = [
      'Rn input noise resistance (unnormalized)',
      '',
      'NF (dB): noise figure of the two-port network',
      '',
      'NFmin (dB): minimum noise figure',
      '',
      'SOpt: optimum input reflection coefficient for noise',
      '',
      '4.3.9 .TF: Transfer Function Analysis',
      '',
      'General form:',
      '```',
      '.tf outvar insrc',
      '```',
      'The .tf line defines the small-signal output and input. If this line is included, the console computes the gain.',
    ].join('\n');
    const { text } = composeAnswer('noise figure in dB of my LNA out of the console', [passage(page)]);
    expect(text).toContain('- NF (dB): noise figure of the two-port network');
    // The next section's heading is not shown as a row of the table, nor its sentence as the answer.
    expect(text).not.toContain('Transfer Function Analysis');
    expect(text).not.toContain('If this line is included');
  });

  it('shows the one sentence the page prints between two chosen sentences of a paragraph', () => {
    const page = [
      'In this small example, the faulty compressor is obvious. However, if you have dozens of compressors on one line, and several pressure alarms, finding the faulty one is nearly impossible. Then set the variable cxdebug in the console: a more detailed message is issued. Detailed pressure alarm message for the faulty compressor on the line:',
      '```',
      'ALARM P4: pressure out of range on unit 7',
      '```',
    ].join('\n');
    const { text } = composeAnswer('dozens of compressors on the line, pressure alarm, how do i find the faulty one', [
      passage(page),
    ]);
    expect(text).toContain('nearly impossible. Then set the variable cxdebug in the console');
    expect(text.indexOf('cxdebug')).toBeLessThan(600);
  });

  it('names a sentence by the reserved name its numbered section is headed with ("3.5.4.2 __port16")', () => {
    const page = [
      '3.5.4.1 __port',
      '',
      'The CX controller has separate address spaces for memory and for its ports. Ports are read with special instructions, e.g.:',
      '```',
      '__port __at 0x18 valve; /* the valve port */',
      '```',
      '3.5.4.2 __port16',
      '',
      'The CX controller has a 16-bit pressure counter read with special instructions.',
    ].join('\n');
    const { text } = composeAnswer('cx controller, how do i declare the 16 bit pressure counter', [passage(page)]);
    expect(text.startsWith('`__port16`: The CX controller has a 16-bit pressure counter')).toBe(true);
    // The section before is another name's: its listing is not shown under this one.
    expect(text).not.toContain('__port __at 0x18');
  });

  it('shows the sentence after a chosen one that turns it around ("There is however ..."), though it shares no word with the question', () => {
    const page = [
      '5.2.5 RAMP',
      '',
      'Currently the CX-10 console does not offer a direct RAMP option on the pressure setpoint, as the CX-9 config files did for every compressor of a line, so such a config is rejected on loading. There is however a soft-start profile called sp_slew (see 12.2), which you may load manually. The profile has to be enabled in the service menu.',
    ].join('\n');
    const { text } = composeAnswer(
      'old CX-9 config has setpoint RAMP = 5 and the CX-10 console rejects it, what do I use instead',
      [passage(page)],
    );
    expect(text).toContain(
      'so such a config is rejected on loading. There is however a soft-start profile called sp_slew',
    );
  });

  it('does not show a listing that ends the section before the answer', () => {
    const page = [
      '```',
      'service flush --cache',
      '    ; restore the saved registers here',
      '```',
      '',
      '3.11.3 Quiet start',
      '',
      'The quiet start mode keeps the CX-10 from running its start-up purge. You must then purge the line by hand before the first run.',
      '',
      '```',
      'service start --quiet',
      '```',
    ].join('\n');
    const { text } = composeAnswer('CX-10 start without the purge, I will purge and restore registers by hand', [
      passage(page),
    ]);
    expect(text).toContain('service start --quiet');
    expect(text).not.toContain('service flush --cache');
  });

  it('reads words joined by a slash in the question as the page writes them apart, and counts them once where typed', () => {
    const page = [
      '5.3 Quiet routines',
      '',
      'The quiet attribute keeps the controller from generating prologue and epilogue code for a routine. The whole routine must then be written by hand, in assembler. This is particularly useful for alarm routines, which can have a long (and often unneeded) prologue/epilogue.',
      '',
      'Routines are stored in the flash of the controller. Each one has a number from 1 to 64. The number is shown on the display while it runs. A routine can call another routine, up to four deep.',
    ].join('\n');
    const { text } = composeAnswer('alarm routine with no prologue/epilogue', [passage(page)]);
    expect(text.startsWith('The quiet attribute keeps the controller from generating prologue and epilogue code')).toBe(
      true,
    );
  });

  it('does not end a sentence at a chapter reference ("see Chapt. 16.5")', () => {
    const page =
      'The purge valve opens at every start (see Chapt. 16.5) for the standard cycle. It closes after ten seconds.';
    const { sources } = composeAnswer('when does the purge valve open', [passage(page)]);
    // The passage the viewer highlights is the whole sentence.
    expect(sources[0]!.quote).toBe('The purge valve opens at every start (see Chapt. 16.5) for the standard cycle.');
  });

  it('does not lead with "Examples:" read as the description of the general form above it', () => {
    const page = [
      '11.3.9 .PURGE: Purge cycle',
      '',
      'General form:',
      '',
      '```',
      '.purge tpurge tstop <tdelay>',
      '```',
      '',
      'Examples:',
      '',
      '```',
      '.purge 10s 60s',
      '.purge 5s 30s 2s',
      '```',
      '',
      'The purge runs for tpurge every tstop; tdelay is the delay before the first purge cycle starts.',
    ].join('\n');
    const { text } = composeAnswer('.purge line, what are tpurge tstop tdelay', [passage(page)]);
    expect(text).not.toMatch(/^\S*\.purge[^\n]*Examples:/);
    expect(text.startsWith('**11.3.9 .PURGE: Purge cycle**\\\nThe purge runs for tpurge every tstop')).toBe(true);
  });

  it('answers an error message printed as a listing with the sentence under it that explains it', () => {
    const page = [
      '7.3.2 Valve block',
      '',
      '```',
      'valve_error:',
      '    *** ERROR ***',
      '    VALVE: Position sensor out of range!',
      '```',
      '',
      'This message occurs whenever the stroke was taught with the valve half open; teach the stroke again with the valve shut.',
      '',
      '```',
      'purge_error:',
      '    *** ERROR ***',
      '    PURGE: Timeout!',
      '```',
      '',
      'This message is a generic message about the purge cycle.',
    ].join('\n');
    const { text } = composeAnswer('VALVE: Position sensor out of range! what is wrong', [passage(page)]);
    expect(
      text.startsWith(
        '**7.3.2 Valve block**\\\nThis message occurs whenever the stroke was taught with the valve half open',
      ),
    ).toBe(true);
  });

  it('starts a listing too long to show at the line that carries the question when the top would push it down', () => {
    const config = [
      ...Array.from({ length: 10 }, (_, i) => `field_${i} = <num> ; # numeric`),
      'purge_delay = <num> ; # milliseconds',
      ...Array.from({ length: 20 }, (_, i) => `extra_${i} = <yes/no> ;`),
    ];
    const page = ['A unit entry takes these fields:', '', '```', ...config, '```'].join('\n');
    const { text } = composeAnswer('unit entry purge delay, ms or seconds?', [passage(page)]);
    expect(text).toContain('```\npurge_delay = <num> ; # milliseconds\n');
    expect(text).not.toContain('field_9');
  });

  it('finds a part family the question names in the rows of its members, not a longer number', () => {
    const models = passage('-m model This option tells the service tool which compressor model is connected.', {
      page: 9,
    });
    const rows = ['Supported models', '', 'cx10a CX10A', 'cx10b CX10B', 'cx20a CX20A', 'cx20b CX20B'].join('\n');
    const table = passage(rows, { page: 15, chunkId: 'c2' });
    const { text, sources } = composeAnswer('is there a -m name for the CX10 compressor', [models, table]);
    expect(sources.map((s) => s.page)).toEqual([9, 15]);
    expect(text).toContain('cx10a CX10A');
    // A number that goes on in digits is another number: "cx100" is no member of "cx10".
    const other = passage(['Supported models', '', 'cx100 CX100', 'cx101 CX101', 'cx102 CX102'].join('\n'), {
      page: 15,
      chunkId: 'c2',
    });
    expect(composeAnswer('is there a -m name for the CX10 compressor', [models, other]).sources).toHaveLength(1);
  });

  it('names the option its description is about for any sentence of the description, not only the first', () => {
    const options = [
      '```',
      '‘purge=<n>’',
      '```',
      '',
      'Sets the interval, in minutes, between two openings of the purge valve on the receiver. Connecting a drain hose to the purge outlet, you can empty the tank when the float switch sticks.',
      '',
      '```',
      '‘fanspeed=<n>’',
      '```',
      '',
      'Sets the fan speed, then exit.',
    ].join('\n');
    const { text } = composeAnswer('float switch stuck, can I still empty the tank', [passage(options)]);
    expect(text.startsWith('`‘purge=<n>’`: Connecting a drain hose to the purge outlet')).toBe(true);
  });

  it('names the option of a further page as the lead names its own', () => {
    const options = [
      '```',
      '‘purgewait=<n>’',
      '```',
      '',
      'Waits n seconds after alarm A12 before the purge valve opens.',
    ];
    const { text } = composeAnswer('alarm A12 on the CX-10', [
      passage(filterPage),
      passage(options.join('\n'), { chunkId: 'c2', page: 30 }),
    ]);
    expect(text).toContain(
      '**CX-10 Compressor Service Manual, page 30** [2]\\\n`‘purgewait=<n>’`: Waits n seconds after alarm A12',
    );
  });

  it('shows first the further page that carries more of the question', () => {
    const sdcc = { manualId: 'manual_sdcc', title: 'SDCC Compiler User Guide' };
    const pic14 = [
      '4.6.9.2 Regression tests fail',
      '',
      'Though the small subset of regression tests in src/regression passes, SDCC regression test suite does not, indicating that there are still major bugs in the port. However, many smaller projects have successfully used SDCC in the past...',
    ].join('\n');
    const registers = [
      'Register Allocation The register allocation determines the type and number of registers needed by each operand.',
      'In most MCUs only a few registers can be used for indirect addressing. The compiler will try to keep operands in registers as much as possible; there are several schemes the compiler uses to do achieve this. When the compiler runs out of registers the compiler will check to see if there are any live operands which is not used or defined in the current basic block',
    ].join('\n');
    const tests = [
      'You’ll find the test code in the directory sdcc/support/regression. You can run these tests manually by running make in this directory (or f.e. ”make test-mcs51” if you don’t want to run the complete tests). The test code might also be interesting if you want to look for examples checking corner cases of SDCC or if you plan to submit patches.',
      'The PIC14 port uses a different set of regression tests , you’ll find them in the directory sdcc/src/regression.',
    ].join('\n');
    const { text, sources } = composeAnswer(
      'where do the regression tests live in the source tree? only need the 8051 ones run',
      [
        passage(pic14, { ...sdcc, page: 80 }),
        passage(registers, { ...sdcc, chunkId: 'c2', page: 121 }),
        passage(tests, { ...sdcc, chunkId: 'c3', page: 109 }),
      ],
    );
    expect(sources.map((s) => s.page)).toEqual([80, 109, 121]);
    expect(text.indexOf('**SDCC Compiler User Guide, page 109** [2]')).toBeLessThan(
      text.indexOf('**SDCC Compiler User Guide, page 121** [3]'),
    );
  });

  it('takes no page for the answer, nor shows it, that carries only a value the question quotes', () => {
    const ngspice = { manualId: 'manual_ngspice', title: 'Ngspice user manual' };
    const options = [
      'PIVREL=x resets the relative ratio between the largest column entry and an acceptable pivot value. The default value is 1.0e-3.',
      '',
      'PIVTOL=x resets the absolute minimum value for a matrix entry to be accepted as a pivot. The default value is 1.0e-13.',
    ].join('\n');
    const diode = [
      'A basic diode model statement:',
      '',
      '```',
      '.model DIODE1 D (bv=50 is=1e-13 n=1.05)',
      '```',
      '',
      'with a user defined model name mname, and the model type D.',
    ].join('\n');
    const bjt = 'ISE B-E leakage saturation current A 0.0 1e-13 area';
    const { text, sources } = composeAnswer("what's pivtol for, default 1e-13?", [
      passage(options, { ...ngspice, page: 297 }),
      passage(diode, { ...ngspice, chunkId: 'c2', page: 128 }),
      passage(bjt, { ...ngspice, chunkId: 'c3', page: 139 }),
    ]);
    expect(text).toMatch(/^PIVTOL=x resets the absolute minimum value/);
    expect(sources.map((s) => s.page)).toEqual([297]);
  });

  it("names no description by a netlist card's example in capitals above it", () => {
    // ngspice's page 58: the general form, then an example, then what the card does.
    const global = [
      '2.6 .GLOBAL',
      '',
      'General form:',
      '',
      '```',
      '.GLOBAL nodename',
      '```',
      '',
      'Examples:',
      '',
      '```',
      '.GLOBAL gnd vcc',
      '```',
      '',
      'Nodes defined in the .GLOBAL statement are available to all circuit and subcircuit blocks independently from any circuit hierarchy.',
    ].join('\n');
    const ngspice = { manualId: 'manual_ngspice', title: 'Ngspice user manual', page: 58 };
    const { text } = composeAnswer('what does .global do', [passage(global, ngspice)]);
    expect(text).toContain('Nodes defined in the .GLOBAL statement are available');
    expect(text).not.toContain('`.GLOBAL gnd vcc`:');
  });

  it('names the command a description is about when a list of commands prints it above', () => {
    const terminal = [
      'pgm Return to programming mode (from direct SPI mode).',
      '',
      '```',
      'vtarg voltage',
      '```',
      '',
      'Set the target’s supply voltage to voltage Volts.',
      '',
      '```',
      'varef [channel] voltage',
      '```',
      '',
      'Set the adjustable voltage source to voltage Volts.',
    ].join('\n');
    const avrdude = { manualId: 'manual_avrdude', title: 'AVRDUDE user manual', page: 36 };
    const { text } = composeAnswer('set the target supply from terminal mode', [passage(terminal, avrdude)]);
    expect(text).toMatch(/^`vtarg voltage`: Set the target’s supply voltage to voltage Volts\./);
    // Shown as the sentence's name, not again as a listing; the next entry's command is not what it introduces.
    expect(text).not.toContain('```');
    // A sentence that names the command itself is not named again.
    const start = composeAnswer('what does ngspice do when started without a file', [
      passage(
        [
          '```',
          'ngspice',
          '```',
          '',
          'ngspice will start, load spinit and .spiceinit, and then waits for your manual input.',
        ].join('\n'),
        { manualId: 'manual_ngspice', title: 'Ngspice user manual', page: 40 },
      ),
    ]);
    expect(start.text).toMatch(/^ngspice will start/);
  });

  it('names the command a list runs into its description when a later sentence of the entry answers', () => {
    const terminal = [
      '```',
      'sck period',
      '```',
      '',
      'STK500 and STK600 only: Set the SCK clock period to period microseconds.',
      '',
      'JTAG ICE only: Set the JTAG ICE bit clock period to period microseconds.',
      '',
      'Note that unlike STK500 settings, this setting will be reverted to its default value when the programming software signs off.',
      '',
      'parms STK500 and STK600 only: Display the current voltage and programming oscillator parameters. JTAG ICE only: Display the current target supply voltage and JTAG bit clock rate/period.',
    ].join('\n');
    const avrdude = { manualId: 'manual_avrdude', title: 'AVRDUDE user manual', page: 37 };
    const { text } = composeAnswer('jtag ice: how do I see the target supply voltage and clock it is set to', [
      passage(terminal, avrdude),
    ]);
    expect(text).toContain('`parms`: JTAG ICE only: Display the current target supply voltage');
    // A paragraph that opens in lower case outside a command list goes on from the page before: no name.
    const prose = [
      'and F1 - F2. One of the advantages of the Volterra series technique is that it computes the distortion directly.',
    ].join('\n');
    const ngspice = { manualId: 'manual_ngspice', title: 'Ngspice user manual', page: 300 };
    const volterra = composeAnswer('what is the advantage of the volterra series technique', [passage(prose, ngspice)]);
    expect(volterra.text).toMatch(/^One of the advantages/);
  });

  it('names the lead by its numbered section when it starts further into the section than the paragraph under the heading', () => {
    const optimizers = [
      '23.4 ngspice optimizer using a Python script',
      '',
      'Werner Hoch has developed a ngspice optimization procedure based on the differential evolution algorithm.',
      '',
      '23.5 ngspice optimizer using ASCO',
      '',
      'The ASCO optimizer, developed by Joao Ramos, also applies the differential evolution algorithm.',
      '',
      'Several optimization examples are prepared for use with ngspice. Parallel processing on a multi-core computer has been tested using MPI under MS Windows.',
    ].join('\n');
    const ngspice = { manualId: 'manual_ngspice', title: 'Ngspice user manual', page: 520 };
    const { text } = composeAnswer('can the optimization run parallel on a multi-core computer', [
      passage(optimizers, ngspice),
    ]);
    expect(text).toMatch(
      /^\*\*23\.5 ngspice optimizer using ASCO\*\*\\\n[^\n]*Parallel processing on a multi-core computer/,
    );
    // The paragraph under the heading needs no name: the heading would only repeat its first words.
    const hoch = composeAnswer('who developed the python optimization procedure', [passage(optimizers, ngspice)]);
    expect(hoch.text).toMatch(/^Werner Hoch has developed/);
  });

  it('answers a question that asks for a value with the sentence of its section that gives one', () => {
    const pointers = [
      '3.5.1.8 Pointers to MCS51/DS390 intrinsic named address spaces',
      '',
      'SDCC allows (via language extensions) pointers to explicitly point to any of the named address spaces of the 8051.',
      'In addition to the explicit pointers, the compiler uses (by default) generic pointers which can be used to point to any of the memory spaces.',
      '',
      'Well you get the idea.',
      '',
      'All unqualified pointers are treated as 3-byte (4-byte for the ds390) generic pointers.',
      '',
      'The highest order byte of the generic pointers contains the data space information. Assembler support routines are called whenever data is stored or retrieved using generic pointers. Explicitly specifying the pointer type will generate the most efficient code.',
      '',
      '3.5.1.9 Notes on MCS51 memory layout',
      '',
      'The 8051 family of microcontrollers have a minimum of 128 bytes of internal RAM memory which is structured as follows:',
    ].join('\n');
    const sdcc = { manualId: 'manual_sdcc', title: 'SDCC Compiler User Guide', page: 43 };
    const { text } = composeAnswer('how big is a plain pointer on 8051 with sdcc and why is pointer code so slow', [
      passage(pointers, sdcc),
    ]);
    const lead = text.slice(0, text.indexOf('*SDCC Compiler User Guide'));
    expect(lead).toContain('All unqualified pointers are treated as 3-byte (4-byte for the ds390) generic pointers.');
    // A number of the next section ("128 bytes of internal RAM") answers another topic.
    expect(lead).not.toContain('128 bytes');
    // Not asked for a value: the answer reads as before.
    expect(
      composeAnswer('why is pointer code so slow on 8051 with sdcc', [passage(pointers, sdcc)]).text,
    ).not.toContain('3-byte');
  });

  it('answers a question that asks for a default with the sentence that states the default', () => {
    const fft = [
      'How to compute the fft from a transient simulation output:',
      '',
      '```',
      'ngspice 9 -> linearize V(2)',
      'ngspice 10 -> fft V(2)',
      '```',
      '',
      'Linearize will create a new vector V(2) in a new plot tran2. The command fft V(2) will create a new plot spec1 with vector V(2) holding the resulting data.',
      'The variables listed in the following table control operation of the fft command. Each can be set with the set command before calling fft.',
      '',
      'specwindow: This variable is set to one of the following strings, which will determine the type of windowing used for the Fourier transform in the spec and fft command. If not set, the default is hanning.',
      '',
      'specwindoworder: This can be set to an integer in the range 2-8. The default value is 2.',
      '',
      'Figure 17.1: Spec and FFT window functions (Gaussian order = 4)',
    ].join('\n');
    const ngspice = { manualId: 'manual_ngspice', title: 'Ngspice user manual', page: 384 };
    const { text } = composeAnswer("fft on my transient output, which window does it use if I don't pick one", [
      passage(fft, ngspice),
    ]);
    const lead = text.slice(0, text.indexOf('*Ngspice user manual'));
    expect(lead).toContain('If not set, the default is hanning.');
    // Another setting's default carries only the word "default"; a figure's number is no default.
    expect(lead).not.toContain('The default value is 2.');
    expect(lead).not.toContain('order = 4');
    // Of two options' defaults, the one that follows the option asked about.
    const options = [
      'TEMP=x resets the operating temperature of the circuit. The default value is 27 ◦C (300K).',
      '',
      'TNOM=x resets the nominal temperature at which device parameters are measured. The default value is 27 ◦C (300 deg K). TNOM can be overridden by a specification on any temperature dependent device model.',
    ].join('\n');
    const tnom = composeAnswer('TNOM default, temperature the model parameters were measured at', [
      passage(options, { ...ngspice, page: 296 }),
    ]);
    expect(tnom.text).toMatch(/^TNOM=x resets the nominal temperature/);
    expect(tnom.text).not.toContain('300K');
  });

  it('recognises the questions that ask for a value, and the units they want', () => {
    expect(askedValue('how big is a plain pointer on 8051')).toMatchObject({ amount: true, fallback: false });
    expect(askedValue('how big is a plain pointer on 8051')?.unit?.test('3-byte')).toBe(true);
    expect(askedValue('stm8 large model, how much flash can I use')).toMatchObject({ quantity: 'flash' });
    expect(askedValue('xbeeboot direct on the usb serial, what baud will avrdude talk at')).toMatchObject({
      quantity: 'baud',
      amount: true,
    });
    expect(askedValue("which window does fft use if I don't pick one")).toMatchObject({
      amount: false,
      fallback: true,
    });
    expect(askedValue('how do I erase the eeprom')).toBeUndefined();
    expect(askedValue('what does -F do')).toBeUndefined();
  });

  it('says so when there is no passage, with no source', () => {
    expect(composeAnswer('anything', [])).toEqual({
      text: `No manual in the library matches this question yet.\n\n${LOCAL_ANSWER_NOTE}`,
      sources: [],
    });
  });
});

describe('composeAnswer, an option entry going on from the page before', () => {
  // avrdude's page 21: the -U entry's memory types and operations, its head on page 20 (the chunk's heading).
  const page = [
    'hfuse The high fuse byte.',
    'lfuse The low fuse byte.',
    'The op field specifies what operation to perform:',
    'r read the specified device memory and write to the specified file w read the specified file and write it to the specified device memory v read the specified device memory and the specified file and perform a verify operation',
    '',
    '-v Enable verbose output. More -v options increase verbosity level.',
  ].join('\n');
  const heading = '2.1 Option Descriptions › -U memtype:op:filename[:format]';

  it("names the option the lead's lines describe, from the passage's heading", () => {
    const { text } = composeAnswer('how do I verify the device memory against a file', [passage(page, { heading })]);
    expect(text).toMatch(/^`-U memtype:op:filename\[:format\]`: r read the specified device memory/);
  });

  it('names none after the page opens an entry of its own, nor without an entry in the heading', () => {
    const verbose = composeAnswer('more verbose output', [passage(page, { heading })]).text;
    expect(verbose).toMatch(/^`-v` Enable verbose output/);
    const plain = composeAnswer('how do I verify the device memory against a file', [
      passage(page, { heading: '2.1 Option Descriptions' }),
    ]).text;
    expect(plain).toMatch(/^r read the specified device memory/);
    // An entry whose option takes a word in lower case ("-i delay For ...") opens an entry too, its head
    // shown as code as "-v"'s is (the run-in head of data/option-entry.ts).
    const delay = composeAnswer('delay between each bit state change', [
      passage(
        'hfuse The high fuse byte.\n\n-i delay For bitbang-type programmers, delay between each bit state change.',
        { heading },
      ),
    ]).text;
    expect(delay).toMatch(/^`-i delay` For bitbang-type programmers/);
  });

  // As a two-page manual's second page is extracted: the memory types go on from page 1, then the operations.
  const continued = [
    'hfuse The high fuse byte.',
    'lfuse The low fuse byte.',
    'lock The lock byte.',
    'signature The three signature bytes of the part (its device ID).',
    '',
    'The op field specifies what operation to perform:',
    'r read the specified memory of the part and write it to the specified file',
    'w read the specified file and write it to the specified memory of the part',
    'v read the specified memory of the part and the specified file and compare them (verify)',
    '',
    'The filename field names the file to read or write. The format field tells how the file is written: i for Intel Hex, s for Motorola S-record, r for raw binary; a file is read in any of them.',
    '',
    '-v Enable verbose output. More -v options make the programmer print more of what it does.',
  ].join('\n');
  const entryPage = passage(continued, { heading, page: 2 });

  it("answers an option the question types from that option's entry, not from the next entry's sentence", () => {
    const { text } = composeAnswer('which operations can the -U option do', [entryPage]);
    expect(text).toMatch(
      /^`-U memtype:op:filename\[:format\]`: The op field specifies what operation to perform:\n\n- r read/,
    );
    expect(text).not.toContain('More -v options');
    // Another option's entry still answers a question about it, and one that types no option.
    expect(composeAnswer('what does -v do', [entryPage]).text).toMatch(/^`-v` Enable verbose output/);
    expect(composeAnswer('more verbose output', [entryPage]).text).toMatch(/^`-v` Enable verbose output/);
  });

  it('leads with the row that answers when the list has no line of the page to introduce it', () => {
    const { text, sources } = composeAnswer('how do I read the high fuse byte', [entryPage]);
    expect(text).toMatch(
      /^`-U memtype:op:filename\[:format\]`: hfuse The high fuse byte\.\\\n\*CX-10 Compressor Service Manual, page 2\* \[1\]\n\n- hfuse The high fuse byte\.\n- lfuse/,
    );
    expect(sources[0]!.quote).toBe('hfuse The high fuse byte.');
    // Rows that carry as much of the question tie: none leads, the list shows them.
    expect(composeAnswer('which fuse byte', [entryPage]).text).toMatch(
      /^\*CX-10 Compressor Service Manual, page 2\* \[1\]\n\n- hfuse/,
    );
  });

  it('keeps a lead that ends in a colon with its list, the page label under a short list and above a long one', () => {
    const { text } = composeAnswer('how do I verify the memory against a file', [entryPage]);
    expect(text).toContain(
      [
        'The op field specifies what operation to perform:',
        '',
        '- r read the specified memory of the part and write it to the specified file',
        '- w read the specified file and write it to the specified memory of the part',
        '- v read the specified memory of the part and the specified file and compare them (verify)',
        '',
        '*CX-10 Compressor Service Manual, page 2* [1]',
      ].join('\n'),
    );
    const commands = Array.from({ length: 10 }, (_, i) => `service dump --bank ${i} --verify`);
    const long = composeAnswer('how do I verify the banks', [
      passage(['To verify every bank, run these commands:', '', '```', ...commands, '```'].join('\n')),
    ]).text;
    expect(long).toMatch(
      /^\*CX-10 Compressor Service Manual, page 12\* \[1\]\\\nTo verify every bank, run these commands:\n\n```\nservice dump --bank 0 --verify\n/,
    );
  });
});
