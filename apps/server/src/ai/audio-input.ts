import { ApiError } from '../errors.js';

/** The transcription limit of OpenAI's endpoint, and of ours. */
export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;

const required = () => new ApiError('VALIDATION_ERROR', 'Audio is required');
const unsupported = () => new ApiError('VALIDATION_ERROR', 'Unsupported audio input type');

function checked(bytes: Uint8Array): Uint8Array {
  if (bytes.length === 0) throw required();
  if (bytes.length > MAX_AUDIO_BYTES)
    throw new ApiError('PAYLOAD_TOO_LARGE', `Audio must be at most ${MAX_AUDIO_BYTES / 1024 / 1024} MB`);
  return bytes;
}

function fromBase64(text: string): Uint8Array {
  const compact = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact)) throw unsupported();
  return checked(Buffer.from(compact, 'base64'));
}

/**
 * The `audio` of a transcription request (PLATFORM_API.md 5.7) as bytes or a URL to fetch:
 * a JSON array of byte values, a `data:` URL, an http(s) URL, or raw base64.
 * Throws VALIDATION_ERROR with SPEC.md section 5's texts.
 */
export function decodeAudioInput(audio: unknown): Uint8Array | URL {
  if (audio === undefined || audio === null || audio === '') throw required();
  if (Array.isArray(audio)) {
    const bytes = new Uint8Array(audio.length);
    for (let i = 0; i < audio.length; i++) {
      const value = audio[i];
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 255) throw unsupported();
      bytes[i] = value;
    }
    return checked(bytes);
  }
  if (typeof audio !== 'string') throw unsupported();
  const dataUrl = /^data:([^;,]*)(;base64)?,/i.exec(audio);
  if (dataUrl) {
    if (!dataUrl[2] || !/^(audio\/|video\/|application\/octet-stream$|$)/i.test(dataUrl[1]!)) throw unsupported();
    return fromBase64(audio.slice(dataUrl[0].length));
  }
  if (/^https?:\/\//i.test(audio)) {
    try {
      return new URL(audio);
    } catch {
      throw new ApiError('VALIDATION_ERROR', 'Invalid URL format');
    }
  }
  return fromBase64(audio);
}
