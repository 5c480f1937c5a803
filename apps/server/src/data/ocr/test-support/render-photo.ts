import sharp, { type OverlayOptions } from 'sharp';

// Renders what a technician photographs: a riveted metal nameplate, a printed sticker or a
// unit's error display, then spoils it as a phone camera on site does (tilt, shear, blur, low
// light, glare, sensor noise, JPEG). Used by the OCR tests and bench/ocr's test set.

export type PhotoStyle = 'plate' | 'sticker' | 'display';

export interface PhotoEffects {
  /** Degrees of tilt. */
  rotate?: number;
  /** Horizontal shear, as a photo taken from the side (0.1 = a little). */
  shear?: number;
  /** Gaussian blur sigma (out of focus, hand shake). */
  blur?: number;
  /** 1 = as lit; 0.4 = a dim plant room. */
  brightness?: number;
  /** Strength of a light's reflection across the plate, 0-1. */
  glare?: number;
  /** Sensor noise, as a standard deviation in grey levels. */
  noise?: number;
  /** JPEG quality. */
  quality?: number;
}

export interface PhotoSpec {
  style: PhotoStyle;
  lines: readonly string[];
  effects?: PhotoEffects;
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const looks: Record<PhotoStyle, { background: string; plate: string; ink: string; font: string; size: number }> = {
  plate: { background: '#5b6168', plate: '#c9ccd0', ink: '#1e1f22', font: 'DejaVu Sans', size: 34 },
  sticker: { background: '#8a8f94', plate: '#f4f1e8', ink: '#111111', font: 'Liberation Sans', size: 32 },
  display: { background: '#2a2d30', plate: '#0c1a0c', ink: '#7dff7a', font: 'DejaVu Sans Mono', size: 56 },
};

function plateSvg({ style, lines }: PhotoSpec): { svg: string; width: number; height: number } {
  const look = looks[style];
  const lineHeight = Math.round(look.size * 1.45);
  const width = 1000;
  const plateHeight = lines.length * lineHeight + 90;
  const height = plateHeight + 160;
  const text = lines
    .map((line, i) => {
      const weight = i === 0 && style !== 'display' ? 'bold' : 'normal';
      return `<text x="110" y="${125 + i * lineHeight + look.size}" font-family="${look.font}" font-weight="${weight}" font-size="${look.size}" fill="${look.ink}">${escapeXml(line)}</text>`;
    })
    .join('');
  const rivets =
    style === 'plate'
      ? [
          [95, 95],
          [905, 95],
          [95, plateHeight + 65],
          [905, plateHeight + 65],
        ]
          .map(([x, y]) => `<circle cx="${x}" cy="${y}" r="9" fill="#8d9095"/>`)
          .join('')
      : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<rect width="${width}" height="${height}" fill="${look.background}"/>
<rect x="70" y="70" width="${width - 140}" height="${plateHeight}" rx="${style === 'sticker' ? 6 : 18}" fill="${look.plate}" stroke="#333" stroke-width="3"/>
${rivets}${text}</svg>`;
  return { svg, width, height };
}

/** A photo (JPEG) of the plate, sticker or display carrying `lines`, with the effects applied. */
export async function renderPhoto(spec: PhotoSpec): Promise<Buffer> {
  const effects = spec.effects ?? {};
  const { svg, width, height } = plateSvg(spec);
  let image = sharp(Buffer.from(svg)).flatten({ background: '#555' });
  const overlays: OverlayOptions[] = [];
  if (effects.glare) {
    const glare = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><radialGradient id="g" cx="0.62" cy="0.35" r="0.35">
<stop offset="0" stop-color="#fff" stop-opacity="${effects.glare}"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs>
<rect width="${width}" height="${height}" fill="url(#g)"/></svg>`;
    overlays.push({ input: Buffer.from(glare), blend: 'screen' });
  }
  if (effects.noise) {
    overlays.push({
      input: {
        create: {
          width,
          height,
          channels: 3,
          background: '#808080',
          noise: { type: 'gaussian', mean: 128, sigma: effects.noise },
        },
      },
      blend: 'soft-light',
    });
  }
  if (overlays.length > 0) image = sharp(await image.composite(overlays).png().toBuffer());
  if (effects.shear)
    image = sharp(
      await image
        .affine(
          [
            [1, effects.shear],
            [0, 1],
          ],
          { background: '#555' },
        )
        .png()
        .toBuffer(),
    );
  if (effects.rotate) image = image.rotate(effects.rotate, { background: '#555' });
  if (effects.blur) image = sharp(await image.png().toBuffer()).blur(effects.blur);
  if (effects.brightness !== undefined) image = image.modulate({ brightness: effects.brightness });
  return image.jpeg({ quality: effects.quality ?? 80 }).toBuffer();
}

/** A photo with no text on it: the side of a pump and its pipes, dim and out of focus. */
export async function renderTextlessPhoto(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="650"><defs>
<linearGradient id="wall" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#7b7f78"/><stop offset="1" stop-color="#4a4d48"/></linearGradient>
<radialGradient id="body" cx="0.4" cy="0.35" r="0.7"><stop offset="0" stop-color="#3f6fa8"/><stop offset="1" stop-color="#1d3554"/></radialGradient></defs>
<rect width="900" height="650" fill="url(#wall)"/>
<rect x="0" y="260" width="900" height="70" fill="#9a9c98"/><rect x="380" y="0" width="60" height="650" fill="#8c8e8a"/>
<ellipse cx="450" cy="330" rx="210" ry="180" fill="url(#body)"/><circle cx="450" cy="330" r="70" fill="#274a73"/>
<rect x="600" y="420" width="180" height="120" rx="12" fill="#2b2e2c"/></svg>`;
  return sharp(Buffer.from(svg)).blur(3).modulate({ brightness: 0.7 }).jpeg({ quality: 75 }).toBuffer();
}
