import { planBills, type Bill } from '../../../../bench/support/bill-corpus.js';
import { renderBill } from '../../../../bench/support/bill-render.js';
import { CONDITIONS, type Condition } from '../../../../bench/support/conditions.js';
import { TextReader } from '../vision/text-reader.js';
import { readAddressDocument } from './address-reader.js';

/** A bill as the address bench generates them, every value the test's. */
const bill = (over: Partial<Bill>): Bill => ({
  lang: 'en',
  country: 'Kenya',
  layout: 'rows',
  issuer: 'Kenya Power and Lighting Company',
  issuerAddress: 'Stima Plaza, Kolobot Road, Nairobi',
  title: 'Electricity bill',
  holder: 'AMINA WANJIKU',
  address: ['12 Moi Avenue', 'Kilimani, Nairobi 00100'],
  issueDate: '2026-10-12',
  printedDate: '12/10/2026',
  dateLabel: 'Bill date',
  others: [
    ['Account number', '24-558301-17'],
    ['Billing period', '10/09/2026 - 09/10/2026'],
    ['Due date', '26/10/2026'],
    ['Amount due', '2,450.00 KES'],
  ],
  nameLabel: 'Account name',
  addressLabel: 'Service address',
  age: 'recent',
  ageDays: 48,
  ...over,
});

const FRENCH = {
  lang: 'fr',
  country: 'Cameroun',
  issuer: 'ENEO Cameroun',
  issuerAddress: 'Avenue de Gaulle, BP 4077, Douala',
  title: "Facture d'électricité",
  holder: 'AWA ESSOMBA',
  address: ['112 Rue Joss', 'Akwa, Douala'],
  issueDate: '2026-09-30',
  printedDate: '30 septembre 2026',
  dateLabel: 'Date de facture',
  others: [
    ['N° de contrat', '53-600725-47'],
    ['Période', '30/08/2026 - 28/09/2026'],
    ["Date d'échéance", '15/10/2026'],
    ['Montant à payer', '68 173,00 FCFA'],
  ],
  nameLabel: 'Titulaire',
  addressLabel: 'Domicile',
} satisfies Partial<Bill>;

describe('proof of address read from a rendered bill', () => {
  const text = new TextReader(['eng', 'fra']);
  afterAll(() => text.close());

  const read = async (b: Bill, condition: Condition, seed: string) =>
    (await readAddressDocument(await renderBill(b, condition, seed), text)).fields;

  it('pairs labels and values printed in two columns (OCR reads each column as a block)', async () => {
    const fields = await read(bill({ layout: 'columns' }), 'clean', 'address-reader/columns/1');
    expect(fields).toMatchObject({
      fullName: 'AMINA WANJIKU',
      address: '12 Moi Avenue, Kilimani, Nairobi 00100',
      issueDate: '2026-10-12',
      issuer: expect.stringMatching(/^kenya power and lighting company$/i),
    });
  }, 60_000);

  it('reads a letter: the address block under its label, the date in a box to the right', async () => {
    const fields = await read(bill({ ...FRENCH, layout: 'letter' }), 'clean', 'address-reader/letter/1');
    expect(fields).toMatchObject({
      fullName: 'AWA ESSOMBA',
      address: '112 Rue Joss, Akwa, Douala',
      issueDate: '2026-09-30',
      issuer: expect.stringMatching(/^eneo cameroun$/i),
    });
  }, 60_000);

  /** A bill of the address bench's tune corpus (seeded: the same image on every run), as the bench renders it. */
  const tuneBill = (index: number) => planBills('bill-corpus/tune/1', index + 1, CONDITIONS)[index];

  it('levels a tilted page before reading it (tune bill #92: rotated, two columns; its date was read from the wrong row)', async () => {
    const { bill: b, condition, seed } = tuneBill(92);
    expect(condition).toBe('rotation');
    const fields = await read(b, condition, seed);
    expect(fields).toMatchObject({ issueDate: b.issueDate, address: b.address.join(', ') });
  }, 60_000);

  it("reads a street's roman numeral OCR took for `I!` (tune bill #47: blurred letter, Avenue Hassan II)", async () => {
    const { bill: b, condition, seed } = tuneBill(47);
    expect(b.address.join(', ')).toMatch(/Hassan II/);
    expect((await read(b, condition, seed)).address).toBe(b.address.join(', '));
  }, 60_000);

  it('reads a heading printed in colour on a photographed bill (tune bill #38: orange on a dark table, unevenly lit)', async () => {
    const { bill: b, condition, seed } = tuneBill(38);
    expect(condition).toBe('perspective+light');
    const fields = await read(b, condition, seed);
    expect(fields.issuer).toMatch(new RegExp(`^${b.issuer}$`, 'i'));
  }, 60_000);
});
