import { ageText, decideAddress, oldestAccepted, type AddressEvidence } from './address-decision.js';
import { billDate, readAddressFields } from './address-fields.js';

const TODAY = '2026-11-25';
const evidence = (over: Partial<AddressEvidence['fields']> = {}, rest: Partial<AddressEvidence> = {}): AddressEvidence => ({
  fields: { fullName: 'AMINA WANJIKU', address: '12 Moi Avenue, Nairobi 00100', issueDate: '2026-10-12', issuer: 'KPLC', ...over },
  textConfidence: 92,
  expectedAddress: '12 Moi Ave, Nairobi',
  today: TODAY,
  ...rest,
});

describe('address decision', () => {
  it('verifies a recent document showing the declared address, with its age in days', () => {
    expect(decideAddress(evidence())).toMatchObject({ decision: 'VERIFIED', reasons: [], documentAgeDays: 44 });
    expect(ageText(44)).toBe('44 days');
    expect(ageText(1)).toBe('1 day');
    expect(ageText(null)).toBeNull();
  });

  it('accepts up to three calendar months, not a day more', () => {
    expect(oldestAccepted('2026-11-25')).toBe('2026-08-25');
    expect(oldestAccepted('2026-05-31')).toBe('2026-02-28');
    expect(decideAddress(evidence({ issueDate: '2026-08-25' })).decision).toBe('VERIFIED');
    const old = decideAddress(evidence({ issueDate: '2026-08-24' }));
    expect(old).toMatchObject({ decision: 'REJECTED', documentAgeDays: 93 });
    expect(old.reasons).toContain('DOCUMENT_TOO_OLD');
  });

  it('rejects a different address and sends an uncertain one to a reviewer', () => {
    const other = decideAddress(evidence({}, { expectedAddress: '45 Kenyatta Road, Mombasa' }));
    expect(other).toMatchObject({ decision: 'REJECTED', reasons: ['ADDRESS_MISMATCH'], comparison: { match: false } });
    const near = decideAddress(evidence({}, { expectedAddress: '14 Moi Avenue, Nairobi' }));
    expect(near).toMatchObject({ decision: 'MANUAL_REVIEW', reasons: ['ADDRESS_PARTIAL_MATCH'] });
  });

  it('sends what it could not read or trust to a reviewer', () => {
    expect(decideAddress(evidence({ issueDate: null })).reasons).toEqual(['ISSUE_DATE_NOT_READ']);
    expect(decideAddress(evidence({ address: null }))).toMatchObject({
      decision: 'MANUAL_REVIEW',
      reasons: ['ADDRESS_NOT_READ'],
      comparison: null,
    });
    expect(decideAddress(evidence({ issueDate: '2027-01-10' })).reasons).toEqual(['ISSUE_DATE_IN_FUTURE']);
    expect(decideAddress(evidence({}, { textConfidence: 40 })).reasons).toEqual(['LOW_TEXT_CONFIDENCE']);
  });

  it('verifies without a declared address (the document proves the address read), and rejects a page with nothing to read', () => {
    expect(decideAddress(evidence({}, { expectedAddress: null }))).toMatchObject({ decision: 'VERIFIED', comparison: null });
    const blank = decideAddress(evidence({ fullName: null, address: null, issueDate: null, issuer: null }));
    expect(blank).toMatchObject({ decision: 'REJECTED', reasons: ['UNREADABLE_DOCUMENT'] });
  });
});

describe('address document fields', () => {
  it('reads labelled fields in English, an address over two lines, the heading as issuer', () => {
    const fields = readAddressFields([
      'KENYA POWER AND LIGHTING',
      'Electricity bill',
      'Account name : AMINA WANJIKU',
      'Account number : 2024-558-301',
      'Service address : 12 Moi Avenue, Apt 4',
      'Nairobi 00100',
      'Bill date : 12/10/2026',
      'Amount due : KES 2,450.00',
    ]);
    expect(fields).toEqual({
      fullName: 'AMINA WANJIKU',
      address: '12 Moi Avenue, Apt 4, Nairobi 00100',
      issueDate: '2026-10-12',
      issuer: 'KENYA POWER AND LIGHTING',
    });
  });

  it('reads French labels and an issuer label', () => {
    const fields = readAddressFields([
      "Facture d'eau",
      'Émetteur : Sénégalaise des Eaux',
      'Nom du client : Awa Diop',
      'Adresse : 25 Rue Félix Faure',
      'Dakar',
      "Date d'émission : 1er novembre 2026",
      'Date limite de paiement : 30/11/2026',
    ]);
    expect(fields).toEqual({
      fullName: 'Awa Diop',
      address: '25 Rue Félix Faure, Dakar',
      issueDate: '2026-11-01',
      issuer: 'Sénégalaise des Eaux',
    });
  });

  it('reads the issuer behind a logo OCR took for a glyph or two, keeping a short article', () => {
    const issuer = (heading: string) => readAddressFields([heading, 'Electricity bill', 'Bill date : 12/10/2026']).issuer;
    expect(issuer('@ ENEO Cameroun')).toBe('ENEO Cameroun');
    expect(issuer('[1] AFRILAND FIRST BANK')).toBe('AFRILAND FIRST BANK');
    expect(issuer('CO) Electricity Company of Ghana')).toBe('Electricity Company of Ghana');
    expect(issuer('EL CITY POWER JOHANNESBURG')).toBe('CITY POWER JOHANNESBURG');
    expect(issuer('La Poste du Sénégal')).toBe('La Poste du Sénégal');
    expect(issuer('MTN Nigeria')).toBe('MTN Nigeria');
  });

  it('pairs a label with the value beside it or under it, and ends an address at the next field', () => {
    const cell = (text: string, x0: number, y0: number) => ({ text, box: { x0, y0, x1: x0 + 18 * text.length, y1: y0 + 30 } });
    // two columns, as OCR gives them: every label first, then every value
    const columns = readAddressFields([
      cell('KENYA POWER', 80, 40),
      ...['Account name', 'Service address', 'Bill date', 'Billing period'].map((l, i) => cell(l, 80, 200 + 60 * i + (i > 1 ? 60 : 0))),
      cell('AMINA WANJIKU', 560, 200),
      cell('12 Moi Avenue', 560, 260),
      cell('Nairobi 00100', 560, 320),
      cell('12/10/2026', 560, 380),
      cell('10/09/2026 - 09/10/2026', 560, 440),
    ]);
    expect(columns).toEqual({
      fullName: 'AMINA WANJIKU',
      address: '12 Moi Avenue, Nairobi 00100',
      issueDate: '2026-10-12',
      issuer: 'KENYA POWER',
    });
    // a letter: the name and address under their labels, the date in a box to the right, a stray edge read as `l`
    const letter = readAddressFields([
      cell('ENEO Cameroun', 80, 40),
      cell('Titulaire :', 80, 200),
      cell('Date de facture : 30/09/2026', 700, 200),
      cell('ÉMILE ESSOMBA', 80, 250),
      cell('Domicile :', 80, 320),
      cell('l', 660, 320),
      cell('112 Rue Joss', 80, 370),
      cell('Akwa, Douala', 80, 420),
      cell('Montant à payer : 68 173,00 FCFA', 80, 540),
    ]);
    expect(letter).toEqual({
      fullName: 'ÉMILE ESSOMBA',
      address: '112 Rue Joss, Akwa, Douala',
      issueDate: '2026-09-30',
      issuer: 'ENEO Cameroun',
    });
  });

  it("reads a street's roman numeral misread with the look-alikes of I, never a house number", () => {
    const address = (...lines: string[]) => readAddressFields(['LYDEC', ...lines]).address;
    expect(address('Adresse : Villa 31, Avenue Hassan I!', '10000 Rabat')).toBe('Villa 31, Avenue Hassan II, 10000 Rabat');
    expect(address('Adresse : 52 Avenue Hassan Il, Racine')).toBe('52 Avenue Hassan II, Racine');
    expect(address('Adresse : Rue 11, Médina')).toBe('Rue 11, Médina');
  });

  it('reads dates in the usual printed forms', () => {
    expect(billDate('15/10/2026')).toBe('2026-10-15');
    expect(billDate('2026-10-15')).toBe('2026-10-15');
    expect(billDate('15 October 2026')).toBe('2026-10-15');
    expect(billDate('October 15, 2026')).toBe('2026-10-15');
    expect(billDate('3 février 2026')).toBe('2026-02-03');
    expect(billDate('31/02/2026')).toBeNull();
  });
});
