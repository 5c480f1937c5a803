/** The operators pdf.js lists for a page (PDFPageProxy.getOperatorList), and the numbers it gives them (OPS). */
export interface OperatorList {
  fnArray: number[];
  argsArray: unknown[];
}
export type Ops = Record<string, number>;

type Matrix = [number, number, number, number, number, number];

const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];
const isMatrix = (value: unknown): value is Matrix =>
  (Array.isArray(value) || ArrayBuffer.isView(value)) && (value as ArrayLike<unknown>).length === 6;

// An image smaller than this share of the page is a logo, an icon or a bullet, not a figure.
const IMAGE_SHARE = 0.04;
// A table's rules or a diagram's lines: this many drawn paths, spread over this share of the page.
// A running header's rule or a box around a note is one or two.
const MIN_PATHS = 12;
const PATHS_SHARE = 0.06;

/**
 * Whether a page holds a figure, a diagram or a ruled table, read from its drawing operators:
 * an image of some size, or many drawn paths spread over a good part of the page. Sizes are
 * taken through the page's transforms (save, restore, cm, form XObjects); `pageArea` is in the
 * same units (PDF points).
 */
export function holdsFigure({ fnArray, argsArray }: OperatorList, OPS: Ops, pageArea: number): boolean {
  const imageOps = new Set(
    [
      OPS.paintImageXObject,
      OPS.paintInlineImageXObject,
      OPS.paintImageXObjectRepeat,
      OPS.paintImageMaskXObject,
      OPS.paintImageMaskXObjectRepeat,
    ].filter((op) => op !== undefined),
  );
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const saved: Matrix[] = [];
  let paths = 0;
  const box = [Infinity, Infinity, -Infinity, -Infinity];
  const extend = (x: number, y: number) => {
    box[0] = Math.min(box[0]!, x);
    box[1] = Math.min(box[1]!, y);
    box[2] = Math.max(box[2]!, x);
    box[3] = Math.max(box[3]!, y);
  };
  for (const [i, op] of fnArray.entries()) {
    const args = argsArray[i] as unknown[] | null;
    if (op === OPS.save || op === OPS.paintFormXObjectBegin) saved.push(ctm);
    if (op === OPS.restore || op === OPS.paintFormXObjectEnd) ctm = saved.pop() ?? ctm;
    const m = op === OPS.transform ? args : op === OPS.paintFormXObjectBegin ? args?.[0] : undefined;
    if (isMatrix(m)) ctm = multiply(ctm, [m[0], m[1], m[2], m[3], m[4], m[5]]);
    // An image fills the unit square of the current transform.
    if (imageOps.has(op) && Math.abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]) >= pageArea * IMAGE_SHARE) return true;
    if (op === OPS.constructPath) {
      const minMax = args?.[2] as ArrayLike<number> | null | undefined;
      if (!minMax || minMax.length !== 4 || !Number.isFinite(minMax[0])) continue;
      paths++;
      for (const [x, y] of [
        [minMax[0]!, minMax[1]!],
        [minMax[2]!, minMax[3]!],
      ] as const)
        extend(ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5]);
    }
  }
  return paths >= MIN_PATHS && (box[2]! - box[0]!) * (box[3]! - box[1]!) >= pageArea * PATHS_SHARE;
}
