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

/** A region of a page in PDF units (points, y upwards): left, bottom, right, top. */
export type Box = [number, number, number, number];

/**
 * The region of a page that holds a figure, a diagram or a ruled table, read from its drawing
 * operators, or null for none: the images of some size, or many drawn paths spread over a good
 * part of the page. Sizes are taken through the page's transforms (save, restore, cm, form
 * XObjects); `pageArea` is in the same units (PDF points).
 */
export function figureBox({ fnArray, argsArray }: OperatorList, OPS: Ops, pageArea: number): Box | null {
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
  const pathBox: Box = [Infinity, Infinity, -Infinity, -Infinity];
  const imageBox: Box = [Infinity, Infinity, -Infinity, -Infinity];
  const extend = (box: Box, x: number, y: number) => {
    const [px, py] = [ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5]];
    box[0] = Math.min(box[0], px);
    box[1] = Math.min(box[1], py);
    box[2] = Math.max(box[2], px);
    box[3] = Math.max(box[3], py);
  };
  for (const [i, op] of fnArray.entries()) {
    const args = argsArray[i] as unknown[] | null;
    if (op === OPS.save || op === OPS.paintFormXObjectBegin) saved.push(ctm);
    if (op === OPS.restore || op === OPS.paintFormXObjectEnd) ctm = saved.pop() ?? ctm;
    const m = op === OPS.transform ? args : op === OPS.paintFormXObjectBegin ? args?.[0] : undefined;
    if (isMatrix(m)) ctm = multiply(ctm, [m[0], m[1], m[2], m[3], m[4], m[5]]);
    // An image fills the unit square of the current transform.
    if (imageOps.has(op) && Math.abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]) >= pageArea * IMAGE_SHARE)
      for (const [x, y] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const)
        extend(imageBox, x, y);
    if (op === OPS.constructPath) {
      const minMax = args?.[2] as ArrayLike<number> | null | undefined;
      if (!minMax || minMax.length !== 4 || !Number.isFinite(minMax[0])) continue;
      paths++;
      extend(pathBox, minMax[0]!, minMax[1]!);
      extend(pathBox, minMax[2]!, minMax[3]!);
    }
  }
  const drawing = paths >= MIN_PATHS && (pathBox[2] - pathBox[0]) * (pathBox[3] - pathBox[1]) >= pageArea * PATHS_SHARE;
  const hasImage = imageBox[0] !== Infinity;
  if (!drawing && !hasImage) return null;
  if (!drawing) return imageBox;
  if (!hasImage) return pathBox;
  return [
    Math.min(pathBox[0], imageBox[0]),
    Math.min(pathBox[1], imageBox[1]),
    Math.max(pathBox[2], imageBox[2]),
    Math.max(pathBox[3], imageBox[3]),
  ];
}
