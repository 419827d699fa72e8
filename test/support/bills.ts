import sharp from 'sharp';

/**
 * Proofs of address rendered for tests: a utility bill as an SVG page (a plain sans-serif font,
 * as bills print) turned into a JPEG by sharp. Every value is the test's, so a test says what the
 * page shows and the check must read it back.
 */

export interface Bill {
  /** The heading: the company that issued it. */
  issuer: string;
  /** The kind of bill under the heading. */
  title: string;
  /** Label–value rows, top to bottom (a value of several lines is an array). */
  rows: Array<[string, string | string[]]>;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** YYYY-MM-DD of `days` days before today (UTC). */
export const daysAgo = (days: number, today = new Date()) => new Date(today.getTime() - days * 86_400_000).toISOString().slice(0, 10);

/** DD/MM/YYYY, as bills print their dates. */
export const slashDate = (iso: string) => iso.split('-').reverse().join('/');

export async function renderBill(bill: Bill): Promise<Buffer> {
  const width = 1240;
  const lines: string[] = [];
  let y = 150;
  lines.push(`<text x="80" y="${y}" font-size="56" font-weight="bold">${escape(bill.issuer)}</text>`);
  y += 70;
  lines.push(`<text x="80" y="${y}" font-size="34">${escape(bill.title)}</text>`);
  y += 110;
  for (const [label, value] of bill.rows) {
    const values = Array.isArray(value) ? value : [value];
    lines.push(`<text x="80" y="${y}" font-size="32">${escape(label)} : ${escape(values[0])}</text>`);
    for (const more of values.slice(1)) {
      y += 50;
      lines.push(`<text x="80" y="${y}" font-size="32">${escape(more)}</text>`);
    }
    y += 70;
  }
  const height = y + 120;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="#ffffff"/>
    <rect x="40" y="60" width="${width - 80}" height="4" fill="#1d4e89"/>
    <g font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" fill="#111111">${lines.join('\n')}</g>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

/** An English electricity bill for `address`, issued on `issued` (YYYY-MM-DD). */
export const electricityBill = (name: string, address: string[], issued: string) =>
  renderBill({
    issuer: 'KENYA POWER AND LIGHTING',
    title: 'Electricity bill',
    rows: [
      ['Account name', name],
      ['Account number', '2024-558-301'],
      ['Service address', address],
      ['Bill date', slashDate(issued)],
      ['Amount due', 'KES 2,450.00'],
    ],
  });

/** A French water bill (accents, French labels). */
export const factureEau = (name: string, address: string[], issued: string) =>
  renderBill({
    issuer: 'SÉNÉGALAISE DES EAUX',
    title: "Facture d'eau",
    rows: [
      ['Nom du client', name],
      ['Numéro de compte', '77-310-452'],
      ['Adresse', address],
      ['Date de facture', slashDate(issued)],
      ['Montant à payer', '15 400 FCFA'],
    ],
  });
