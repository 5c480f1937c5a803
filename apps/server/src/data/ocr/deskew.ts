import sharp from 'sharp';

// A phone held at an angle tilts a nameplate's lines by a few degrees, and tesseract misreads or
// drops tilted lines. The angle is found by a projection profile: rotated to the right angle,
// the rows of a picture of text alternate sharply between ink and background.
const maxDegrees = 12;
const sampleWidth = 480;

/** The rotation, in whole degrees within ±12, that makes the text lines of a grey image horizontal. */
export async function findSkew(grey: Buffer): Promise<number> {
  const sample = await sharp(grey)
    .greyscale()
    .resize({ width: sampleWidth })
    .raw()
    .toBuffer({ resolveWithObject: true });
  let best = { angle: 0, score: -1 };
  for (let angle = -maxDegrees; angle <= maxDegrees; angle++) {
    const { data, info } = await sharp(sample.data, { raw: sample.info })
      .rotate(angle, { background: '#808080' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const score = rowContrast(data, info.width, info.height, info.channels);
    if (score > best.score) best = { angle, score };
  }
  return best.angle;
}

/** How sharply the mean brightness changes from one row to the next, on average. */
function rowContrast(data: Buffer, width: number, height: number, channels: number): number {
  let previous: number | undefined;
  let total = 0;
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) row += data[(y * width + x) * channels]!;
    row /= width;
    if (previous !== undefined) total += (row - previous) ** 2;
    previous = row;
  }
  return total / height;
}
