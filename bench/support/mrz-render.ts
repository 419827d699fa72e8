import sharp, { type OverlayOptions, type Sharp } from 'sharp';
import type { Format, MrzDocument, Truth } from './mrz-corpus.js';
import type { LoadedFont } from './mrz-fonts.js';
import { seeded, type Random } from './random.js';
import { warpPerspective, type Point, type RawImage } from './warp.js';

/**
 * Document images for the documents bench: the zone set in a monospace font at the bottom of a
 * light, textured page (guilloche, a portrait, labels and printed fields above it, so a reader
 * has to find the zone), then degraded under one condition and saved as a JPEG.
 */

export type Condition = 'clean' | 'jpeg' | 'blur' | 'noise' | 'rotation' | 'perspective+light' | 'lowres';
export const CONDITIONS: readonly Condition[] = ['clean', 'jpeg', 'blur', 'noise', 'rotation', 'perspective+light', 'lowres'];

type Rgb = [number, number, number];

/** Width over height of the document (ICAO 9303 sizes: ID-1 card, ID-2, passport page). */
const PAGE_ASPECT: Record<Format, number> = { TD1: 85.6 / 54, TD2: 105 / 74, TD3: 125 / 88 };
const PAPERS: Rgb[] = [
  [240, 238, 228],
  [232, 240, 230],
  [242, 232, 236],
  [230, 236, 244],
  [246, 242, 226],
  [236, 236, 236],
];
const INKS = ['#111111', '#1a1a22', '#202020', '#101828'];
/**
 * Font size of the zone at "300 dpi", in pixels per em: capitals of 26–35 px. ICAO's pitch of
 * 2.54 mm is 30 px at 300 dpi, OCR-B's at 42 px per em.
 */
const ZONE_EM: [number, number] = [36, 48];

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function renderDocument(doc: MrzDocument, font: LoadedFont, condition: Condition, seed: string): Promise<Buffer> {
  const rng = seeded(seed);
  // lowres: the page as scanned at 150–200 dpi instead of 300
  const scale = condition === 'lowres' ? rng.between(150, 200) / 300 : 1;
  const page = await composePage(doc, font, rng, scale);
  return degrade(page, condition, rng);
}

interface Page {
  image: RawImage;
  paper: Rgb;
}

async function composePage(doc: MrzDocument, font: LoadedFont, rng: Random, scale: number): Promise<Page> {
  const em = rng.between(...ZONE_EM) * scale;
  const zone = await zoneImage(doc.lines, font, em, rng);
  const width = Math.round(zone.width / rng.between(0.86, 0.92));
  const height = Math.round(width / PAGE_ASPECT[doc.format]);
  const zoneLeft = Math.round(((width - zone.width) / 2) * rng.between(0.7, 1.3));
  const zoneTop = Math.round(height - zone.height - height * rng.between(0.04, 0.07));
  const paper = rng.pick(PAPERS);
  const printed = await printedParts(doc, { width, bottom: zoneTop, em }, rng);
  const { data, info } = await sharp(paperTexture(width, height, paper, rng), { raw: { width, height, channels: 3 } })
    .composite([
      { input: guilloche(width, height, paper, rng), left: 0, top: 0 },
      ...printed,
      { input: zone.png, left: zoneLeft, top: zoneTop },
    ])
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { image: { data, width: info.width, height: info.height, channels: info.channels }, paper };
}

/** The zone's lines in one block (one layout, so the columns of every line align), in a dark ink. */
async function zoneImage(
  lines: string[],
  font: LoadedFont,
  em: number,
  rng: Random,
): Promise<{ png: Buffer; width: number; height: number }> {
  const { advance, lineHeight } = font.metrics;
  // ICAO's line pitch is about 1.6–1.9 character pitches; never tighter than the font's own
  const spacing = Math.max(0, Math.round(em * (advance * rng.between(1.6, 1.9) - lineHeight)));
  const markup = `<span foreground="${rng.pick(INKS)}">${escape(lines.join('\n'))}</span>`;
  const { data, info } = await sharp({
    text: { text: markup, fontfile: font.file, font: `${font.family} ${em.toFixed(1)}px`, rgba: true, spacing },
  })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { png: data, width: info.width, height: info.height };
}

/** Light paper: a base colour, slow waves of shade and fine grain. */
function paperTexture(width: number, height: number, paper: Rgb, rng: Random): Buffer {
  // sin(u + v) = sin u·cos v + cos u·sin v: each wave's x and y terms computed once
  const waves = Array.from({ length: 3 }, () => {
    const fx = (2 * Math.PI * rng.between(0.5, 3)) / width;
    const fy = (2 * Math.PI * rng.between(0.5, 3)) / height;
    const phase = rng.between(0, 2 * Math.PI);
    const amplitude = rng.between(2, 5);
    const xs = Array.from({ length: width }, (_, x) => [amplitude * Math.sin(fx * x), amplitude * Math.cos(fx * x)]);
    return { xs, row: (y: number) => [Math.cos(fy * y + phase), Math.sin(fy * y + phase)] };
  });
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    const rows = waves.map((w) => w.row(y));
    for (let x = 0; x < width; x++) {
      let shade = (rng.next() - 0.5) * 8; // grain
      for (let w = 0; w < waves.length; w++) shade += waves[w].xs[x][0] * rows[w][0] + waves[w].xs[x][1] * rows[w][1];
      for (let c = 0; c < 3; c++) data[(y * width + x) * 3 + c] = Math.max(0, Math.min(255, paper[c] + shade));
    }
  }
  return data;
}

const hex = (rgb: Rgb) =>
  `#${rgb
    .map((v) =>
      Math.max(0, Math.min(255, Math.round(v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

/** Fine security-print waves across the page, a little darker than the paper. */
function guilloche(width: number, height: number, paper: Rgb, rng: Random): Buffer {
  const tint = hex([paper[0] - rng.between(15, 35), paper[1] - rng.between(15, 35), paper[2] - rng.between(10, 30)]);
  const paths = Array.from({ length: rng.int(10, 18) }, () => {
    const y0 = rng.between(0, height);
    const amplitude = rng.between(0.02, 0.08) * height;
    const wavelength = rng.between(0.08, 0.3) * width;
    const phase = rng.between(0, 2 * Math.PI);
    const points = Array.from({ length: Math.ceil(width / 6) + 1 }, (_, i) => {
      const x = i * 6;
      return `${x},${(y0 + amplitude * Math.sin((2 * Math.PI * x) / wavelength + phase)).toFixed(1)}`;
    });
    return `<path d="M${points.join(' L')}" fill="none" stroke="${tint}" stroke-width="${rng.between(0.8, 1.6).toFixed(2)}" opacity="0.6"/>`;
  });
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${paths.join('')}</svg>`);
}

/** A portrait's place: a pale frame with a head-and-shoulders silhouette. */
function portrait(width: number, height: number, rng: Random): Buffer {
  const tone = hex([rng.between(90, 170), rng.between(80, 140), rng.between(70, 120)]);
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<rect width="${width}" height="${height}" fill="#d8dde4" stroke="#9aa0a8" stroke-width="2"/>` +
      `<ellipse cx="${width / 2}" cy="${height * 0.38}" rx="${width * 0.22}" ry="${height * 0.2}" fill="${tone}"/>` +
      `<path d="M${width * 0.1},${height} Q${width / 2},${height * 0.5} ${width * 0.9},${height} Z" fill="#3c4450"/>` +
      `</svg>`,
  );
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const printedDate = (iso: string) => `${iso.slice(8, 10)} ${MONTHS[Number(iso.slice(5, 7)) - 1] ?? '???'} ${iso.slice(0, 4)}`;
const PLACES = [
  'NAIROBI',
  'LAGOS',
  'ACCRA',
  'DAKAR',
  'KAMPALA',
  'KIGALI',
  'LUSAKA',
  'HARARE',
  'ADDIS ABABA',
  'TUNIS',
  'CASABLANCA',
  'UTOPIA CITY',
];
const AUTHORITIES = ['MINISTRY OF INTERIOR', 'IMMIGRATION DEPARTMENT', 'NATIONAL REGISTRATION BUREAU', 'DIRECTORATE OF CIVIL STATUS'];

/** The printed data above the zone: labels in two languages, values as the holder's name and dates. */
function printedFields(truth: Truth, rng: Random): Array<[string, string]> {
  const issued = `${Number(truth.expiryDate.slice(0, 4)) - 10}${truth.expiryDate.slice(4)}`;
  return [
    ['Surname / Nom', truth.surname || '—'],
    ['Given names / Prénoms', truth.givenNames || '—'],
    ['Nationality / Nationalité', truth.nationality],
    ['Date of birth / Date de naissance', printedDate(truth.dateOfBirth)],
    ['Sex / Sexe', truth.sex ?? 'X'],
    ['Place of birth / Lieu de naissance', rng.pick(PLACES)],
    ['Date of issue / Date de délivrance', printedDate(issued)],
    ['Date of expiry / Date d’expiration', printedDate(truth.expiryDate)],
    ['Document no. / N° du document', truth.documentNumber],
    ['Authority / Autorité', rng.pick(AUTHORITIES)],
  ];
}

/** Label-and-value pairs as one text block; `rows` pairs at most. */
async function fieldBlock(pairs: Array<[string, string]>, em: number, rows: number): Promise<Buffer> {
  const label = (em * 0.36).toFixed(1);
  const value = (em * 0.55).toFixed(1);
  const markup = pairs
    .slice(0, rows)
    .map(
      ([l, v]) =>
        `<span font_desc="sans ${label}px" foreground="#4a5060">${escape(l)}</span>\n<span font_desc="sans bold ${value}px">${escape(v)}</span>`,
    )
    .join('\n');
  return sharp({ text: { text: markup, font: `sans ${value}px`, rgba: true, spacing: Math.round(em * 0.12) } })
    .png()
    .toBuffer();
}

/** A block cropped to `height` (a field list taller than the room above the zone loses its last rows). */
async function fitHeight(png: Buffer, height: number): Promise<Buffer> {
  const meta = await sharp(png).metadata();
  if (meta.height! <= height) return png;
  return sharp(png)
    .extract({ left: 0, top: 0, width: meta.width!, height: Math.max(1, height) })
    .png()
    .toBuffer();
}

/** Title, portrait (passports and TD2) and two columns of printed fields, all above `bottom`. */
async function printedParts(doc: MrzDocument, box: { width: number; bottom: number; em: number }, rng: Random): Promise<OverlayOptions[]> {
  const { width, bottom, em } = box;
  const margin = Math.round(em * rng.between(0.8, 1.4));
  const titleText = doc.format === 'TD3' ? 'PASSPORT / PASSEPORT' : 'IDENTITY CARD / CARTE D’IDENTITÉ';
  const title = await sharp({ text: { text: escape(titleText), font: `sans bold ${(em * 0.7).toFixed(1)}px`, rgba: true } })
    .png()
    .toBuffer();
  const top = margin + Math.round(em * 1.3);
  const room = bottom - top - margin;
  const parts: OverlayOptions[] = [{ input: title, left: margin, top: margin }];
  let left = margin;
  if (doc.format !== 'TD1' && room > em * 3) {
    const photoWidth = Math.round(width * 0.22);
    const photoHeight = Math.min(room, Math.round(photoWidth * 1.28));
    parts.push({ input: portrait(photoWidth, photoHeight, rng), left, top });
    left += photoWidth + margin;
  }
  if (room < em) return parts;
  const rows = Math.max(1, Math.floor(room / (em * 1.25)));
  const fields = printedFields(doc.truth, rng);
  const half = Math.ceil(fields.length / 2);
  const column = Math.round((width - left - margin) / 2);
  for (const [i, pairs] of [fields.slice(0, half), fields.slice(half)].entries()) {
    parts.push({ input: await fitHeight(await fieldBlock(pairs, em, rows), room), left: left + i * column, top });
  }
  return parts;
}

// ---- conditions ----

const fromRaw = (image: RawImage) =>
  sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels as 3 } });
const jpeg = (image: Sharp, quality: number) => image.jpeg({ quality }).toBuffer();

/** The page under one condition, as the JPEG a client would upload. */
async function degrade(page: Page, condition: Condition, rng: Random): Promise<Buffer> {
  const { image, paper } = page;
  switch (condition) {
    case 'clean':
      return jpeg(fromRaw(image), 95);
    case 'jpeg':
      return jpeg(fromRaw(image), rng.int(40, 90));
    case 'blur':
      return jpeg(fromRaw(image).blur(rng.between(0.5, 1.5)), 90);
    case 'noise':
      return jpeg(fromRaw(withNoise(image, rng.between(6, 16), rng)), 90);
    case 'rotation': {
      const degrees = (rng.chance(0.5) ? 1 : -1) * rng.between(1, 7);
      return jpeg(fromRaw(image).rotate(degrees, { background: { r: paper[0], g: paper[1], b: paper[2] } }), rng.int(75, 90));
    }
    case 'perspective+light':
      // a phone photo: the page on a table seen at a slant, lit unevenly, a little soft, compressed
      return jpeg(fromRaw(unevenLight(photographed(image, rng), rng)).blur(0.6), rng.int(70, 88));
    case 'lowres':
      return jpeg(fromRaw(image), rng.int(85, 92));
  }
}

/** Additive grey noise: the same offset on every channel of a pixel. */
function withNoise(image: RawImage, sigma: number, rng: Random): RawImage {
  const data = Buffer.from(image.data);
  for (let i = 0; i < data.length; i += image.channels) {
    const offset = rng.gaussian() * sigma;
    for (let c = 0; c < image.channels; c++) data[i + c] = Math.max(0, Math.min(255, data[i + c] + offset));
  }
  return { ...image, data };
}

/** The page inside a wider frame of table, its corners moved independently by up to 4 % of its size. */
function photographed(image: RawImage, rng: Random): RawImage {
  const margin = Math.round(0.06 * Math.max(image.width, image.height));
  const width = image.width + 2 * margin;
  const height = image.height + 2 * margin;
  const jitter = (size: number) => rng.between(-0.04, 0.04) * size;
  const corner = (x: number, y: number): Point => ({ x: x + jitter(image.width), y: y + jitter(image.height) });
  const corners = [
    corner(margin, margin),
    corner(margin + image.width, margin),
    corner(margin + image.width, margin + image.height),
    corner(margin, margin + image.height),
  ];
  const table = rng.pick<Rgb>([
    [92, 70, 52],
    [58, 58, 62],
    [120, 110, 96],
  ]);
  const grain = (x: number, y: number) => ((x * 73856093) ^ (y * 19349663)) & 15;
  return warpPerspective(image, corners, width, height, (x, y, c) => table[c] + grain(x, y));
}

/** Light falling off across the photo in one direction (a lamp or a window to one side). */
function unevenLight(image: RawImage, rng: Random): RawImage {
  const angle = rng.between(0, 2 * Math.PI);
  const dx = Math.cos(angle);
  const dy = Math.sin(angle);
  const depth = rng.between(0.25, 0.5);
  const gain = rng.between(0.98, 1.1);
  const span = Math.abs(dx) * image.width + Math.abs(dy) * image.height;
  const start = Math.min(0, dx * image.width) + Math.min(0, dy * image.height);
  const data = Buffer.from(image.data);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const t = (dx * x + dy * y - start) / span; // 0 on the lit side, 1 on the dark one
      const light = gain * (1 - depth * t);
      const at = (y * image.width + x) * image.channels;
      for (let c = 0; c < image.channels; c++) data[at + c] = Math.min(255, data[at + c] * light);
    }
  }
  return { ...image, data };
}
