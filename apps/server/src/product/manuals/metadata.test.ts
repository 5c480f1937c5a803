// A manual's metadata read on the server: with a model (the local OpenAI-compatible peer) and
// without one (heuristics), with SPEC.md section 5's file-name fallback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalProvider } from '../../ai/local.js';
import { createOpenAiCompatibleProvider } from '../../ai/openai-compatible.js';
import { type OpenAiPeer, startOpenAiPeer } from '../../test-support/openai-peer.js';
import { readManualMetadata } from './metadata.js';

let peer: OpenAiPeer;
beforeAll(async () => {
  peer = await startOpenAiPeer();
});
afterAll(() => peer.close());

const model = () =>
  createOpenAiCompatibleProvider({
    baseUrl: peer.baseUrl,
    model: 'peer-model',
    imageModel: 'i',
    speechModel: 's',
    transcribeModel: 't',
    timeoutMs: 5000,
    maxOutputTokens: 500,
    saveGeneratedFile: async () => 'unused',
    downloadFile: async () => ({ bytes: new Uint8Array() }),
  });
const log = () => undefined;
const cover = `Rooftop unit RTU-9 service guide\n${'Check the condenser fan. '.repeat(200)}`;

describe('readManualMetadata', () => {
  it('asks the model about the first 2,000 characters with the metadata schema, and fills an Unknown title and part number from the file name', async () => {
    peer.reset();
    peer.set({ object: { title: 'Unknown', technology: 'HVAC', datePublished: 'March 2021', partNumber: 'Unknown' } });
    const metadata = await readManualMetadata({ ai: model(), text: cover, fileName: 'PN-9_Rooftop_unit.pdf', log });
    expect(metadata).toEqual({
      title: 'Rooftop unit',
      technology: 'HVAC',
      datePublished: 'March 2021',
      partNumber: 'PN-9',
    });
    const [request] = peer.chatRequests();
    const prompt = String(request!.messages[0]!.content);
    expect(prompt.slice(prompt.indexOf('from this text: ') + 16).split('\n\nFile name:')[0]).toBe(cover.slice(0, 2000));
    expect(request!.response_format?.json_schema?.schema).toMatchObject({
      required: ['title', 'technology', 'datePublished'],
    });
  });

  it('falls back to the file name when the model refuses', async () => {
    peer.reset();
    peer.failNext(1, { status: 400, message: 'bad request' });
    expect(await readManualMetadata({ ai: model(), text: cover, fileName: 'PN-9_Rooftop_unit.pdf', log })).toEqual({
      title: 'Rooftop unit',
      technology: 'Unknown',
      datePublished: 'Unknown',
      partNumber: 'PN-9',
    });
  });

  it('reads the text by heuristics without a model, never asking the local provider', async () => {
    const metadata = await readManualMetadata({
      ai: createLocalProvider(),
      text: 'Boiler burner service checklist\nCheck the flue.',
      fileName: 'notes.txt',
      log,
    });
    expect(metadata).toEqual({
      title: 'Boiler burner service checklist',
      technology: 'Boilers',
      datePublished: 'Unknown',
      partNumber: 'Unknown',
    });
  });
});
