// A photo in the chat, read by real OCR: the identification first, the answer scoped to the
// manual it names, the permission rule, the honest answer for a photo without text, the
// user's correction, and what the model is given. The real app with its own database.
import { readFile } from 'node:fs/promises';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPhoto, renderTextlessPhoto } from '../../data/ocr/test-support/render-photo.js';
import { startOpenAiPeer, type OpenAiPeer } from '../../test-support/openai-peer.js';
import type { TestUser } from '../../test-support/users.js';
import { PLANNER_ID, readSse, startChatApp } from './test-support/chat-app.js';

let chat: Awaited<ReturnType<typeof startChatApp>>;
let tech: TestUser;
let boilerPhoto: Buffer;
beforeAll(async () => {
  chat = await startChatApp();
  tech = await chat.signUp('technician');
  boilerPhoto = await renderPhoto({
    style: 'plate',
    lines: ['THERMAX HEATING', 'MODEL GB-90', 'S/N 2231-77K', 'FAULT F28'],
    effects: { rotate: 3, blur: 1, brightness: 0.6, noise: 20, glare: 0.5 },
  });
});

const photoPart = (parts: { type: string; data?: unknown }[]) =>
  parts.find((part) => part.type === 'data-photo')?.data as
    | {
        text: string;
        identifiers: { kind: string; value: string }[];
        manual: { manualId: string; title: string } | null;
      }
    | undefined;

describe('a photo in the chat without a model', () => {
  it('names what it read and the manual first, then answers from that manual', { timeout: 60_000 }, async () => {
    const imageUrl = await chat.upload(tech, boilerPhoto, 'jpg');
    const { text, sources, parts } = await readSse(
      await chat.ask(tech, { question: 'What is wrong with this unit?', imageUrl }),
    );
    // The serial number is read or not, depending on the photo; the model and the fault always.
    expect(text.split('\n')[0]).toMatch(
      /^From the photo: model GB-90, (serial \S+, )?error F28 -> GB-90 Gas Boiler Installation Guide$/,
    );
    expect(text).toContain('Fault F28: no ignition.');
    expect(text).toContain('*GB-90 Gas Boiler Installation Guide, page 2* [1]');
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.every((source) => source.manualId === 'manual_boiler')).toBe(true);
    expect(sources[0]!.page).toBe(2);
    // The recognised text reaches the web app before the answer, to be shown under the photo.
    const photo = photoPart(parts)!;
    expect(parts.findIndex((part) => part.type === 'data-photo')).toBeLessThan(
      parts.findIndex((part) => part.type === 'text-delta'),
    );
    expect(photo.text).toMatch(/MODEL GB-90[\s\S]*FAULT F28/);
    expect(photo.identifiers).toContainEqual({ kind: 'model', value: 'GB-90' });
    expect(photo.manual).toEqual({ manualId: 'manual_boiler', title: 'GB-90 Gas Boiler Installation Guide' });
    const saved = JSON.parse((await chat.savedRows(tech)).at(-1)!.response) as { photo: unknown };
    expect(saved.photo).toEqual(photo);
  });

  it('says plainly that a photo without text could not be read, and answers nothing as if it had been seen', async () => {
    const user = await chat.signUp('technician');
    const imageUrl = await chat.upload(user, await renderTextlessPhoto(), 'jpg');
    const { text, sources, parts } = await readSse(await chat.ask(user, { imageUrl }));
    expect(text).toBe(
      'I could not read any text in this photo, so I cannot tell which unit it shows. Please type the model number from its nameplate, or describe the unit and what it is doing.',
    );
    expect(sources).toEqual([]);
    expect(photoPart(parts)).toEqual({ text: '', identifiers: [], manual: null });
  });

  it(
    'searches with the error on a photographed screen and quotes it first, when no model number is on it',
    { timeout: 60_000 },
    async () => {
      // A phone photo of a terminal (bench/chat-photos): avrdude's invalid device signature, no model number.
      const screen = await readFile(new URL('../../data/ocr/test-support/avrdude-signature.jpg', import.meta.url));
      await seedManual(chat.pool, 'manual_avrdude', 'AVRDUDE User Manual', [
        'Examples. Enter terminal mode with avrdude -c jtag2 -p m649 -t; avrdude prints the device signature 0x1e9603 and waits for commands.',
        '-F Normally AVRDUDE checks that the device signature read from the part is reasonable before continuing. An invalid signature of 0x000000 means the programmer gets no answer from the chip: check the connections and the target supply, or slow the ISP clock with -B.',
      ]);
      const user = await chat.signUp('technician');
      const imageUrl = await chat.upload(user, screen, 'jpg');
      const { text, sources } = await readSse(await chat.ask(user, { question: '', imageUrl }));
      expect(text.split('\n')[0]).toMatch(/^From the photo: "avrdude: Yikes! Invalid device signature\./);
      expect(sources[0]).toMatchObject({ manualId: 'manual_avrdude', page: 2 });
    },
  );

  it('uses the text as the user corrected it instead of reading the photo again', async () => {
    const user = await chat.signUp('viewer');
    const imageUrl = await chat.upload(user, await renderTextlessPhoto(), 'jpg');
    const { text, sources, parts } = await readSse(
      await chat.ask(user, { question: 'How do I fix this?', imageUrl, photoText: 'MODEL CP-2OO\nERROR E42' }),
    );
    expect(text.split('\n')[0]).toBe(
      'From the photo: model CP-200, error E42 -> CP-200 Centrifugal Pump Service Manual',
    );
    expect(sources.every((source) => source.manualId === 'manual_pump')).toBe(true);
    expect(text).toContain('Error code E42: the CP-200 lost its prime.');
    expect(photoPart(parts)!.text).toBe('MODEL CP-2OO\nERROR E42');
  });

  it('identifies a system planner for a technician only, like retrieval', async () => {
    const valveLabel = await renderPhoto({
      style: 'sticker',
      lines: ['ISOLATION VALVE', 'TAG NO. V-17', 'SECONDARY LOOP'],
      effects: { rotate: -2, blur: 0.6 },
    });
    const ask = async (user: TestUser) =>
      readSse(
        await chat.ask(user, {
          question: 'Which valve is this?',
          imageUrl: await chat.upload(user, valveLabel, 'jpg'),
        }),
      );
    const technician = await ask(await chat.signUp('technician'));
    expect(photoPart(technician.parts)!.manual).toEqual({ manualId: PLANNER_ID, title: 'Plant Room System Planner' });
    for (const role of ['viewer', 'manager'] as const) {
      const { text, sources, parts } = await ask(await chat.signUp(role));
      expect(photoPart(parts)!.manual).toBeNull();
      expect(text.split('\n')[0]).toMatch(/-> no manual in your library matches this\.$/);
      expect(text).not.toContain('Plant Room System Planner');
      expect(sources.some((source) => source.manualId === PLANNER_ID)).toBe(false);
    }
  });

  it('refuses a corrected photo text without its photo, naming the field', async () => {
    const response = await chat.ask(tech, { question: 'Fix?', photoText: 'MODEL CP-200' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'body.photoText: The corrected photo text needs its photo (imageUrl)',
    });
  });
});

describe('a photo in the chat with a model', () => {
  let peer: OpenAiPeer;
  let withModel: Awaited<ReturnType<typeof startChatApp>>;
  beforeAll(async () => {
    peer = await startOpenAiPeer();
    withModel = await startChatApp({ peer });
  });
  afterAll(() => peer.close());

  it(
    'gives the model the image and the text read from it, and opens the answer with the identification',
    { timeout: 60_000 },
    async () => {
      const user = await withModel.signUp('technician');
      const imageUrl = await withModel.upload(user, boilerPhoto, 'jpg');
      const { text } = await readSse(await withModel.ask(user, { question: 'What is wrong?', imageUrl }));
      expect(text).toMatch(
        /^From the photo: model GB-90, (serial \S+, )?error F28 -> GB-90 Gas Boiler Installation Guide\n\nHello from the peer\.$/,
      );
      const content = peer.chatRequests()[0]!.messages[1]!.content as {
        type: string;
        text?: string;
        image_url?: { url: string };
      }[];
      expect(content[0]!.text).toMatch(
        /^Manual excerpts:\n\n\[1\] GB-90 Gas Boiler Installation Guide, page 2\nFault F28/,
      );
      expect(content[0]!.text).toMatch(
        /Text read from it by OCR \(it may contain reading errors\):\n"""\n[^"]*MODEL GB-90[^"]*\n"""\nFrom the photo: model GB-90/,
      );
      expect(content[1]).toEqual({
        type: 'image_url',
        image_url: { url: `data:image/jpeg;base64,${boilerPhoto.toString('base64')}` },
      });
    },
  );
});

/** One more manual, one chunk per page, as ingestion would leave it. */
async function seedManual(pool: pg.Pool, id: string, title: string, pages: string[]) {
  await pool.query('INSERT INTO manuals (id, title, file_url, file_name) VALUES ($1, $2, $3, $4)', [
    id,
    title,
    `https://files.fieldassist.test/files/${id}.pdf`,
    `${id}.pdf`,
  ]);
  for (const [i, text] of pages.entries())
    await pool.query(
      'INSERT INTO manual_content (id, manual_id, extracted_text, chunk_index, page_number) VALUES ($1, $2, $3, $4, $5)',
      [`${id}_${i}`, id, text, i, i + 1],
    );
}
