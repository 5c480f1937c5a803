import mammoth from 'mammoth';
import WordExtractor from 'word-extractor';
import { ApiError } from '../errors.js';

/** The raw text of a Word 2007+ file (paragraphs, tables, lists), read with mammoth. */
export async function readDocxText(bytes: Buffer): Promise<string> {
  try {
    const { value } = await mammoth.extractRawText({ buffer: bytes });
    return value;
  } catch {
    throw new ApiError('UNREADABLE_DOCUMENT', 'The file could not be read as a Word (.docx) document');
  }
}

/** The body text of a Word 97-2003 file, read with word-extractor. */
export async function readDocText(bytes: Buffer): Promise<string> {
  try {
    const document = await new WordExtractor().extract(bytes);
    return document.getBody();
  } catch {
    throw new ApiError('UNREADABLE_DOCUMENT', 'The file could not be read as a Word (.doc) document');
  }
}
