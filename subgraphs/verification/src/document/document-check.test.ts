import { decideDocument, type DocumentEvidence } from './document-check.js';
import { parseMrz } from './mrz.js';
import { printedDate, readPrintedFields } from './printed-fields.js';

const TD1 = ['I<KENA123456784<<<<<<<<<<<<<<<', '8402297F3001019KEN<<<<<<<<<<<8', 'WANJIKU<<AMINA<GRACE<<<<<<<<<<'];
const PRINTED = ['SURNAME WANJIKU', 'GIVEN NAMES AMINA GRACE', 'DATE OF BIRTH 29.02.1984', 'ID NO A12345678', 'DATE OF EXPIRY 01.01.2030'];
const image = { sharpness: 3000, brightness: 200, faceScores: [0.95], ocrConfidence: 90 };

const evidence = (changes: Partial<DocumentEvidence> = {}): DocumentEvidence => ({
  documentType: 'ID_CARD',
  documentCountry: 'KE',
  front: image,
  back: image,
  printed: readPrintedFields(PRINTED),
  mrz: parseMrz(TD1, new Date('2026-11-25')),
  today: '2026-11-25',
  ...changes,
});

describe('document decision', () => {
  it('verifies a consistent, sharp, unexpired document with a valid zone and a portrait', () => {
    const outcome = decideDocument(evidence());
    expect(outcome).toMatchObject({
      decision: 'VERIFIED',
      reasons: [],
      extractedData: {
        fullName: 'AMINA GRACE WANJIKU',
        dateOfBirth: '1984-02-29',
        documentNumber: 'A12345678',
        expiryDate: '2030-01-01',
        nationality: 'KE',
      },
    });
    expect(outcome.confidence).toBeGreaterThan(0.8);
  });

  it('sends a valid zone whose image leaves a field in doubt to review, naming the field', () => {
    const outcome = decideDocument(evidence({ mrz: { ...parseMrz(TD1, new Date('2026-11-25'))!, doubtful: ['surname'] } }));
    expect(outcome).toMatchObject({ decision: 'MANUAL_REVIEW', reasons: ['MRZ_FIELD_UNCERTAIN:surname'] });
  });

  it('rejects for certain failures, and names each', () => {
    const broken = parseMrz([TD1[0], TD1[1].replace('3001019', '3001029'), TD1[2]])!;
    const outcome = decideDocument(evidence({ mrz: broken }));
    expect(outcome.reasons).toEqual(['MRZ_CHECK_DIGIT_FAILED:expirationDate', 'MRZ_CHECK_DIGIT_FAILED:composite']);
    // the fields whose own check digits hold are still read from the zone
    expect(outcome).toMatchObject({ decision: 'REJECTED', extractedData: { documentNumber: 'A12345678', dateOfBirth: '1984-02-29' } });
    expect(decideDocument(evidence({ today: '2030-01-02' }))).toMatchObject({ decision: 'REJECTED', reasons: ['DOCUMENT_EXPIRED'] });
    expect(decideDocument(evidence({ front: { ...image, faceScores: [] } })).reasons).toEqual(['NO_FACE_ON_DOCUMENT']);
    expect(decideDocument(evidence({ back: { ...image, sharpness: 40 } })).reasons).toEqual(['IMAGE_TOO_BLURRY']);
  });

  it('sends inconsistent or incomplete evidence to review', () => {
    expect(decideDocument(evidence({ documentCountry: 'UG' }))).toMatchObject({ decision: 'MANUAL_REVIEW', reasons: ['COUNTRY_MISMATCH'] });
    expect(decideDocument(evidence({ documentType: 'PASSPORT' })).reasons).toEqual(['DOCUMENT_TYPE_MISMATCH']);
    const tampered = readPrintedFields([...PRINTED.slice(0, 3), 'ID NO A99999999']);
    expect(decideDocument(evidence({ printed: tampered })).reasons).toEqual(['PRINTED_FIELDS_DIFFER_FROM_MRZ']);
    expect(decideDocument(evidence({ documentType: 'PASSPORT', mrz: null, back: null })).reasons).toEqual(['MRZ_NOT_FOUND']);
    const unread = decideDocument(
      evidence({
        mrz: null,
        printed: readPrintedFields([]),
        front: { ...image, ocrConfidence: 20 },
        back: { ...image, ocrConfidence: 20 },
      }),
    );
    expect(unread).toMatchObject({
      decision: 'MANUAL_REVIEW',
      reasons: ['FIELDS_NOT_READ:fullName,dateOfBirth,documentNumber', 'LOW_TEXT_CONFIDENCE'],
    });
    expect(decideDocument(evidence({ front: { ...image, sharpness: 250 } })).reasons).toEqual(['LOW_IMAGE_QUALITY']);
  });
});

describe('printed fields', () => {
  it('reads labels in English and French, values on the same or the next line', () => {
    expect(
      readPrintedFields([
        'NOM',
        'DIALLO',
        'PRÉNOMS: Fatou',
        'DATE DE NAISSANCE 03 MAR 1990',
        'NATIONALITÉ SÉNÉGAL',
        'CARTE N° 1 234 5678 9',
      ]),
    ).toEqual({
      surname: 'DIALLO',
      givenNames: 'FATOU',
      fullName: 'FATOU DIALLO',
      dateOfBirth: '1990-03-03',
      documentNumber: '123456789',
      expiryDate: null,
      nationality: 'SN',
    });
  });

  it('reads a full name label before a surname label', () => {
    expect(readPrintedFields(['NOM ET PRÉNOMS: KOUASSI AYA MARIE'])).toMatchObject({ fullName: 'KOUASSI AYA MARIE', surname: null });
  });

  it('reads dates only when they are real', () => {
    expect(['29/02/1984', '1984-02-29', '29 FEB 1984', '29.02.1984'].map(printedDate)).toEqual(Array(4).fill('1984-02-29'));
    expect(printedDate('30.02.1984')).toBeNull();
    expect(printedDate('soon')).toBeNull();
  });
});
