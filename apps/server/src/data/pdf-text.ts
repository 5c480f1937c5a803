import { getDocumentProxy, getResolvedPDFJS } from 'unpdf';
import { ApiError } from '../errors.js';
import type { PageText } from './chunk.js';
import { type Box, figureBox } from './pdf-figures.js';
import { layoutText } from './pdf-layout.js';

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

const unreadable = () => new ApiError('UNREADABLE_DOCUMENT', 'The file could not be read as a PDF');
// A scan is recognised from the first pages only: listing a page's operators decodes its images.
const pagesCheckedForImages = 3;
// A page with fewer letters and digits than this has no real text layer (a scan with a page number or a stamp).
const scanBelowCharacters = 20;

async function openPdf(bytes: Uint8Array): Promise<PdfDocument> {
  try {
    return await getDocumentProxy(bytes, {
      // CVE-2024-4367: pdf.js must not compile font code with eval/new Function.
      isEvalSupported: false,
      verbosity: 0,
      disableFontFace: true,
    });
  } catch (error) {
    if ((error as { name?: string }).name === 'PasswordException')
      throw new ApiError('DOCUMENT_ENCRYPTED', 'This PDF is password-protected');
    throw unreadable();
  }
}

/** A page's text, and the region of its figure, diagram or ruled table if it holds one (what a thumbnail of the page would show). */
async function readPage(pdf: PdfDocument, pageNumber: number): Promise<{ text: string; figure: Box | null }> {
  const page = await pdf.getPage(pageNumber);
  try {
    const content = await page.getTextContent();
    const monospace = new Set(
      Object.entries(content.styles)
        .filter(([, style]) => style.fontFamily === 'monospace')
        .map(([name]) => name),
    );
    const text = layoutText(
      content.items.flatMap((item) =>
        'str' in item
          ? [
              {
                str: item.str,
                x: item.transform[4],
                y: item.transform[5],
                width: item.width,
                size: Math.hypot(item.transform[2], item.transform[3]),
                monospace: monospace.has(item.fontName),
                hasEOL: item.hasEOL,
              },
            ]
          : [],
      ),
    );
    const [left = 0, bottom = 0, right = 0, top = 0] = page.view;
    const { OPS } = await getResolvedPDFJS();
    // A damaged drawing costs the page its figure mark, not its text.
    const box = await page.getOperatorList().then(
      (operators) => figureBox(operators, OPS, (right - left) * (top - bottom)),
      () => null,
    );
    // Inside the page: a drawing may run past its edge.
    const figure: Box | null = box && [
      Math.max(left, box[0]),
      Math.max(bottom, box[1]),
      Math.min(right, box[2]),
      Math.min(top, box[3]),
    ];
    return { text, figure: figure && figure[0] < figure[2] && figure[1] < figure[3] ? figure : null };
  } finally {
    page.cleanup();
  }
}

async function hasImages(pdf: PdfDocument): Promise<boolean> {
  const { OPS } = await getResolvedPDFJS();
  const imageOps = new Set<number>([
    OPS.paintImageXObject,
    OPS.paintInlineImageXObject,
    OPS.paintImageMaskXObject,
    OPS.paintImageXObjectRepeat,
    OPS.paintImageMaskXObjectRepeat,
    OPS.paintImageMaskXObjectGroup,
    OPS.paintInlineImageXObjectGroup,
    OPS.paintSolidColorImageMask,
  ]);
  for (let n = 1; n <= Math.min(pdf.numPages, pagesCheckedForImages); n++) {
    const page = await pdf.getPage(n);
    const operators = await page.getOperatorList();
    page.cleanup();
    if (operators.fnArray.some((op) => imageOps.has(op))) return true;
  }
  return false;
}

/**
 * Reads a PDF page by page with pdf.js (through unpdf) and hands each page's text to `emit`
 * as soon as it is read, so a long manual is never held as one string. Pages without text
 * are skipped. Each page with (almost) no text layer is also handed to `emitScan`, to be read
 * by OCR; with `scansRead`, such pages are text to come, not an error. Throws
 * DOCUMENT_ENCRYPTED, UNREADABLE_DOCUMENT, NO_TEXT_LAYER (pages but only images) or
 * EMPTY_DOCUMENT ('PDF content is empty').
 */
export async function readPdfPages(
  bytes: Uint8Array,
  emit: (page: PageText) => void,
  emitScan: (page: number) => void,
  { scansRead = false } = {},
): Promise<void> {
  const pdf = await openPdf(bytes);
  try {
    let emitted = 0;
    let scans = 0;
    let failed = 0;
    for (let n = 1; n <= pdf.numPages; n++) {
      // One damaged page should not cost the manual its other pages.
      let broken = false;
      const { text, figure } = await readPage(pdf, n).catch(
        () => ((broken = true), failed++, { text: '', figure: null }),
      );
      const scanned = !broken && text.replace(/[^\p{L}\p{N}]/gu, '').length < scanBelowCharacters;
      // A scanned page is one big image: its figure, if any, cannot be told from its text.
      if (text) {
        emit({ page: n, text, ...(figure && !scanned ? { figure } : {}) });
        emitted++;
      }
      if (scanned) {
        emitScan(n);
        scans++;
      }
    }
    if (emitted > 0 || (scansRead && scans > 0)) return;
    if (pdf.numPages > 0 && failed === pdf.numPages) throw unreadable();
    if (await hasImages(pdf).catch(() => false)) {
      throw new ApiError('NO_TEXT_LAYER', 'This PDF has no text layer (scanned images); it cannot be searched');
    }
    throw new ApiError('EMPTY_DOCUMENT', 'PDF content is empty');
  } finally {
    await pdf.destroy();
  }
}
