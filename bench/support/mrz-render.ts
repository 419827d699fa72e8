import sharp, { type OverlayOptions } from 'sharp';
import { conditionScale, degrade, type Condition, type Page, type Rgb } from './conditions.js';
import type { Format, MrzDocument, Truth } from './mrz-corpus.js';
import type { LoadedFont } from './mrz-fonts.js';
import { seeded, type Random } from './random.js';

/**
 * Document images for the documents bench: the zone set in a monospace font at the bottom of a
 * light, textured page (guilloche, a portrait, labels and printed fields above it, so a reader
 * has to find the zone), then degraded under one condition and saved as a JPEG.
 */

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
  const scale = conditionScale(condition, rng);
  const page = await composePage(doc, font, rng, scale);
  return degrade(page, condition, rng);
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
export function paperTexture(width: number, height: number, paper: Rgb, rng: Random): Buffer {
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
