import sharp from 'sharp';
import type { Bill } from './bill-corpus.js';
import { conditionScale, degrade, type Condition, type Rgb } from './conditions.js';
import { paperTexture } from './mrz-render.js';
import { seeded, type Random } from './random.js';

/**
 * Bill images for the address bench: the top of a printed bill (the issuer's heading and logo,
 * its own address, the title, the holder's fields) on light paper, in one of three layouts, then
 * degraded under one condition (`conditions.ts`, shared with the documents bench) and saved as a
 * JPEG. Layouts: `rows` (label : value, one per line), `columns` (labels in a column, values in
 * another, no colon), `letter` (the holder's address block on the left under its label, the date
 * and account in a box on the right, the other fields below).
 */

/** Fonts as bills print them (DejaVu, a dependency of the fonts the system has; looked up by family). */
const FAMILIES = ['DejaVu Sans', 'DejaVu Sans Condensed', 'DejaVu Serif', 'DejaVu Serif Condensed'];
const PAPERS: Rgb[] = [
  [250, 250, 248],
  [246, 246, 240],
  [244, 247, 250],
  [250, 246, 238],
];
const BRANDS = ['#1d4e89', '#b3261e', '#0b7a3e', '#e8750a', '#5b2a86', '#0a6e8a'];
const INKS = ['#111111', '#1c1c24', '#222222'];
/** Body text em at "300 dpi", in pixels (8–9 pt); headings are larger. */
const BODY_EM: [number, number] = [32, 38];

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export async function renderBill(bill: Bill, condition: Condition, seed: string): Promise<Buffer> {
  const rng = seeded(seed);
  const scale = conditionScale(condition, rng);
  const paper = rng.pick(PAPERS);
  const { svg, width, height } = compose(bill, rng, scale);
  const { data, info } = await sharp(paperTexture(width, height, paper, rng), { raw: { width, height, channels: 3 } })
    .composite([{ input: Buffer.from(svg), left: 0, top: 0 }])
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return degrade({ image: { data, width: info.width, height: info.height, channels: info.channels }, paper }, condition, rng);
}

interface Text {
  x: number;
  y: number;
  text: string;
  size: number;
  bold?: boolean;
  fill?: string;
}

/**
 * A font size no larger than `size` at which `text` fits in `room` pixels: a printed bill's text
 * never runs off its page or out of its box (advances of DejaVu's widest face, bold capitals
 * wider than lower case).
 */
function fit(size: number, text: string, room: number, bold: boolean): number {
  const advance = [...text].reduce((sum, ch) => sum + (/[A-ZÉÈ]/.test(ch) ? 0.72 : 0.6), 0) * (bold ? 1.08 : 1);
  return Math.min(size, room / advance);
}

function compose(bill: Bill, rng: Random, scale: number): { svg: string; width: number; height: number } {
  const em = rng.between(...BODY_EM) * scale;
  const width = Math.round(rng.between(44, 50) * em);
  const margin = Math.round(rng.between(2, 3) * em);
  const family = rng.pick(FAMILIES);
  const brand = rng.pick(BRANDS);
  const ink = rng.pick(INKS);
  const texts: Text[] = [];
  const shapes: string[] = [];
  const line = em * rng.between(1.45, 1.7);
  const colon = bill.lang === 'fr' ? ' : ' : rng.pick([': ', ' : ']);

  // heading: a logo, the issuer's name (in capitals on one bill in two), its own address, the title
  const logo = Math.round(em * 2.4);
  shapes.push(
    rng.chance(0.5)
      ? `<circle cx="${margin + logo / 2}" cy="${margin + logo / 2}" r="${logo / 2}" fill="${brand}"/>`
      : `<rect x="${margin}" y="${margin}" width="${logo}" height="${logo}" rx="${em * 0.3}" fill="${brand}"/>`,
  );
  const name = rng.chance(0.5) ? bill.issuer.toUpperCase() : bill.issuer;
  const headingLeft = margin + logo + em * 0.6;
  const headingSize = fit(em * rng.between(1.5, 1.9), name, width - margin - headingLeft, true);
  texts.push({ x: headingLeft, y: margin + logo * 0.62, text: name, size: headingSize, bold: true, fill: brand });
  let y = margin + logo + line * 0.9;
  texts.push({ x: margin, y, text: bill.issuerAddress, size: em * 0.75, fill: '#555555' });
  y += line * 1.2;
  texts.push({ x: margin, y, text: bill.title, size: em * 1.2, bold: true });
  y += line * 0.5;
  shapes.push(`<rect x="${margin}" y="${y}" width="${width - 2 * margin}" height="${Math.max(2, em * 0.08)}" fill="${brand}"/>`);
  y += line * 1.3;

  const [account, ...rest] = bill.others;
  const rows: Array<[string, string[]]> = [
    [bill.nameLabel, [bill.holder]],
    [account[0], [account[1]]],
    [bill.addressLabel, bill.address],
    [bill.dateLabel, [bill.printedDate]],
    ...rest.map(([l, v]): [string, string[]] => [l, [v]]),
  ];

  if (bill.layout === 'rows') {
    for (const [label, values] of rows) {
      texts.push({ x: margin, y, text: `${label}${colon}${values[0]}`, size: em, fill: ink });
      for (const more of values.slice(1)) texts.push({ x: margin, y: (y += line), text: more, size: em, fill: ink });
      y += line * 1.25;
    }
  } else if (bill.layout === 'columns') {
    const column = margin + Math.round(em * rng.between(12, 15));
    for (const [label, values] of rows) {
      texts.push({ x: margin, y, text: label, size: em, fill: '#444444' });
      texts.push({ x: column, y, text: values[0], size: em, bold: rng.chance(0.3), fill: ink });
      for (const more of values.slice(1)) texts.push({ x: column, y: (y += line), text: more, size: em, fill: ink });
      y += line * 1.25;
    }
  } else {
    // the holder's block on the left, the date and account in a box on the right
    const top = y;
    texts.push({ x: margin, y, text: bill.nameLabel + colon.trimEnd(), size: em * 0.85, fill: '#444444' });
    texts.push({ x: margin, y: (y += line), text: bill.holder, size: em, bold: true, fill: ink });
    y += line * 1.3;
    texts.push({ x: margin, y, text: bill.addressLabel + colon.trimEnd(), size: em * 0.85, fill: '#444444' });
    for (const value of bill.address) texts.push({ x: margin, y: (y += line), text: value, size: em, fill: ink });
    const boxLeft = Math.round(width * 0.56);
    const boxRight = width - margin;
    shapes.push(
      `<rect x="${boxLeft - em * 0.6}" y="${top - line}" width="${boxRight - boxLeft + em * 0.6}" height="${line * 3.3}" fill="none" stroke="${brand}" stroke-width="${Math.max(1.5, em * 0.06)}"/>`,
    );
    const boxed = [`${bill.dateLabel}${colon}${bill.printedDate}`, `${account[0]}${colon}${account[1]}`];
    const boxSize = Math.min(...boxed.map((t) => fit(em * 0.9, t, boxRight - boxLeft - em * 0.4, false)));
    boxed.forEach((t, i) => texts.push({ x: boxLeft, y: top + line * 1.2 * i, text: t, size: boxSize, fill: ink }));
    y += line * 2;
    for (const [label, value] of rest) {
      texts.push({ x: margin, y, text: `${label}${colon}${value}`, size: em, fill: ink });
      y += line * 1.25;
    }
  }
  const height = Math.round(y + margin);
  const body = texts
    .map(
      (t) =>
        `<text x="${t.x.toFixed(1)}" y="${t.y.toFixed(1)}" font-size="${t.size.toFixed(1)}"${t.bold ? ' font-weight="bold"' : ''}` +
        ` fill="${t.fill ?? ink}">${escape(t.text)}</text>`,
    )
    .join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `${shapes.join('')}<g font-family="${family}">${body}</g></svg>`;
  return { svg, width, height };
}
