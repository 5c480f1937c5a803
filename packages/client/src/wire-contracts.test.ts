// The wire shapes the server and the client share (@fieldassist/client/chat-sources,
// realtime-frames, manuals): what each schema lets through and what it leaves out.
import { chatSourcesOf, chatSuggestionsOf, suggestionLabel } from '@fieldassist/client/chat-sources';
import { ZManual, ZUploadedManualFile } from '@fieldassist/client/manuals';
import { parseFrame, ZFrame, ZServerFrame } from '@fieldassist/client/realtime-frames';
import { describe, expect, it } from 'vitest';

describe('chat sources', () => {
  const source = { manualId: 'manual_1', title: 'RTU manual', page: 12, fileUrl: 'https://x.test/rtu.pdf' };

  it('keeps each source that fits, with its quote, and leaves out the rest and any extra field', () => {
    expect(
      chatSourcesOf([
        { ...source, quote: 'Check the belt', extra: 'dropped' },
        { ...source, page: null },
        { title: 'no manual id', page: 1, fileUrl: 'https://x.test/a.pdf' },
        { ...source, page: '12' },
        null,
        'manual_1',
      ]),
    ).toEqual([
      { ...source, quote: 'Check the belt' },
      { ...source, page: null },
    ]);
  });

  it("keeps a figure's box on its page; a malformed box costs the source only its box (the whole page is shown)", () => {
    const figure = { ...source, hasFigure: true };
    expect(
      chatSourcesOf([
        { ...figure, figureBox: [70, 337, 543, 490] },
        { ...figure, figureBox: [70, 337, 543] },
        { ...figure, figureBox: '70 337 543 490' },
        figure,
      ]),
    ).toEqual([{ ...figure, figureBox: [70, 337, 543, 490] }, figure, figure, figure]);
  });

  it('reads anything that is not a list as no sources', () => {
    expect(chatSourcesOf(undefined)).toEqual([]);
    expect(chatSourcesOf({ 0: source })).toEqual([]);
  });
});

describe('chat suggestions', () => {
  const suggestion = {
    manualId: 'manual_1',
    title: 'RTU manual',
    page: 12,
    fileUrl: 'https://x.test/rtu.pdf',
    heading: '',
  };

  it('keeps each suggestion that fits, without a quote or any extra field, and leaves out the rest', () => {
    expect(
      chatSuggestionsOf([
        { ...suggestion, heading: 'Belts', quote: 'dropped', extra: 'dropped' },
        { ...suggestion, page: null },
        { ...suggestion, heading: undefined },
        null,
      ]),
    ).toEqual([
      { ...suggestion, heading: 'Belts' },
      { ...suggestion, page: null },
    ]);
    expect(chatSuggestionsOf('manual_1')).toEqual([]);
  });

  it('names a suggestion by its title, its page and its heading, each when known', () => {
    expect(suggestionLabel({ ...suggestion, heading: 'Belts' })).toBe('RTU manual, page 12 (Belts)');
    expect(suggestionLabel(suggestion)).toBe('RTU manual, page 12');
    expect(suggestionLabel({ ...suggestion, page: null })).toBe('RTU manual');
  });
});

describe('realtime frames', () => {
  const message = {
    id: '1700000000000-0',
    channel: 'crew',
    type: 'note',
    data: { n: 1 },
    timestamp: 1_700_000_000_000,
  };

  it('reads every server frame of PLATFORM_API.md 8.3', () => {
    const frames = [
      { type: 'connected', payload: { socketId: 'abc' } },
      { type: 'authenticated', payload: { userId: 'u1' } },
      { type: 'subscribed', payload: { channel: 'crew' } },
      { type: 'unsubscribed', payload: { channel: 'crew' } },
      { type: 'message', payload: { ...message, userId: 'u1', metadata: { device: 'phone' } } },
      {
        type: 'presence',
        payload: { channel: 'crew', data: { users: [{ userId: 'u1', joinedAt: 1, lastSeen: 2 }] } },
      },
      { type: 'published', payload: { channel: 'crew', messageId: message.id } },
      { type: 'pong', payload: {} },
      { type: 'error', payload: { error: 'Authentication required', code: 'UNAUTHORIZED', channel: 'crew' } },
    ];
    for (const frame of frames) expect(parseFrame(ZServerFrame, JSON.stringify(frame))).toEqual(frame);
  });

  it('drops what is not JSON, an unknown type, or a frame missing what the client reads', () => {
    const misfits = [
      'not json',
      JSON.stringify({ type: 'surprise', payload: {} }),
      JSON.stringify({ type: 'message', payload: { ...message, id: undefined } }),
      JSON.stringify({ type: 'published', payload: { channel: 'crew' } }),
      JSON.stringify({ type: 'presence', payload: { channel: 'crew' } }),
      JSON.stringify({ type: 'subscribed' }),
    ];
    for (const text of misfits) expect(parseFrame(ZServerFrame, text)).toBeUndefined();
  });

  it("reads a client frame's envelope as the server does: a payload that is not an object is {}", () => {
    expect(parseFrame(ZFrame, '{"type":"ping"}')).toEqual({ type: 'ping', payload: {} });
    expect(parseFrame(ZFrame, '{"type":"ping","payload":[1]}')).toEqual({ type: 'ping', payload: {} });
    expect(parseFrame(ZFrame, '{"payload":{}}')).toBeUndefined();
  });
});

describe('manuals', () => {
  const metadata = { title: 'Pump guide', technology: 'Pumps', datePublished: 'Unknown', partNumber: 'PN-100' };

  it('an uploaded file needs its path, URL and every metadata field', () => {
    const file = { path: 'manuals/1/a.pdf', fileUrl: 'https://x.test/a.pdf', fileName: 'a.pdf' };
    const uploaded = { ...file, fileSize: 10, fileType: 'application/pdf', metadata };
    expect(ZUploadedManualFile.parse(uploaded)).toEqual(uploaded);
    const { partNumber: _missing, ...partial } = metadata;
    expect(ZUploadedManualFile.safeParse({ ...uploaded, metadata: partial }).success).toBe(false);
  });

  it('a saved manual has a known processing status and document type', () => {
    const manual = {
      id: 'manual_1',
      versionId: null,
      title: 'Pump guide',
      fileUrl: 'https://x.test/a.pdf',
      fileName: 'a.pdf',
      fileSize: 10,
      fileType: 'application/pdf',
      description: null,
      documentType: 'manual',
      technology: 'Pumps',
      datePublished: null,
      partNumber: 'PN-100',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      uploadedBy: null,
      processingStatus: 'pending',
      processingError: null,
      pageCount: null,
    };
    expect(ZManual.parse(manual)).toEqual(manual);
    expect(ZManual.safeParse({ ...manual, processingStatus: 'done' }).success).toBe(false);
    expect(ZManual.safeParse({ ...manual, documentType: 'memo' }).success).toBe(false);
  });
});
