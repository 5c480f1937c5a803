// Makes the app's icons (issue 18: made by the project, nothing downloaded): the wrench of
// favicon.svg on the brand blue, as the PNG sizes browsers ask for, with ImageMagick.
// Usage: node apps/web/scripts/make-icons.mjs (writes apps/web/public/icons/; commit the result).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const OUT = fileURLToPath(new URL('../public/icons/', import.meta.url));
const BLUE = '#193cb8'; // index.css --primary (light)
const WRENCH =
  'M14.7 6.3a1 1 0 0 0 0 1.4l1.6 1.6a1 1 0 0 0 1.4 0l3.106-3.105c.32-.322.863-.22.983.218a6 6 0 0 1-8.259 7.057l-7.91 7.91a1 1 0 0 1-2.999-3l7.91-7.91a6 6 0 0 1 7.057-8.259c.438.12.54.662.219.984z';

/** A 512-unit square; `scale` of the 24-unit wrench, centred. Maskable icons keep it in the safe 80 % circle. */
function svg({ rounded, scale }) {
  const offset = (512 - 24 * scale) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">
<rect width="512" height="512" rx="${rounded ? 112 : 0}" fill="${BLUE}"/>
<path transform="translate(${offset} ${offset}) scale(${scale})" d="${WRENCH}" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>
</svg>`;
}

mkdirSync(OUT, { recursive: true });
const sources = { any: svg({ rounded: true, scale: 14 }), maskable: svg({ rounded: false, scale: 11 }) };
for (const [kind, text] of Object.entries(sources)) writeFileSync(`${OUT}icon-${kind}.svg`, text);

const pngs = [
  ['any', 192, 'icon-192.png'],
  ['any', 512, 'icon-512.png'],
  ['maskable', 192, 'icon-maskable-192.png'],
  ['maskable', 512, 'icon-maskable-512.png'],
  ['maskable', 180, 'apple-touch-icon.png'], // iOS rounds the corners itself
];
for (const [kind, size, name] of pngs) {
  execFileSync('convert', [
    '-background',
    'none',
    '-density',
    '288',
    `${OUT}icon-${kind}.svg`,
    '-resize',
    `${size}x${size}`,
    `PNG32:${OUT}${name}`,
  ]);
}
console.log(`icons written to ${OUT}`);
