import { AMINA, corrupt, idCardBack, passportPage, td1, td3 } from '../../../../test/support/documents.js';
import { portrait } from '../../../../test/support/faces.js';
import { TextReader } from '../vision/text-reader.js';
import { correctByShape, parseMrz, readMrz } from './mrz.js';

const TODAY = new Date('2026-11-25T00:00:00Z');

describe('machine-readable zone', () => {
  const text = new TextReader();
  afterAll(() => text.close());

  const read = (image: Buffer) => readMrz(image, text, { today: TODAY });

  it('reads an ID card zone (TD1) and its check digits hold', async () => {
    const lines = td1(AMINA);
    const reading = await read(await idCardBack(lines));
    expect(reading).toMatchObject({
      format: 'TD1',
      lines,
      valid: true,
      failedChecks: [],
      documentCode: 'I',
      issuingState: 'KEN',
      documentNumber: 'A12345678',
      dateOfBirth: '1984-02-29',
      expiryDate: '2030-01-01',
      nationality: 'KEN',
      sex: 'F',
      surname: 'WANJIKU',
      givenNames: 'AMINA GRACE',
    });
  }, 60_000);

  it('reads a passport zone (TD3)', async () => {
    const reading = await read(await passportPage(AMINA, await portrait('woman')));
    expect(reading).toMatchObject({ format: 'TD3', lines: td3(AMINA), valid: true, documentNumber: 'A12345678', expiryDate: '2030-01-01' });
  }, 60_000);

  it('names the check digits a changed character breaks', async () => {
    const lines = td1(AMINA);
    lines[1] = corrupt(lines[1], 2); // a digit of the date of birth
    const reading = await read(await idCardBack(lines));
    expect(reading).toMatchObject({ valid: false, failedChecks: expect.arrayContaining(['birthDate', 'composite']) });
  }, 60_000);

  it('undoes OCR confusions where the format says digit or letter', () => {
    const lines = td1(AMINA);
    const misread = [lines[0], lines[1].replace('840229', '84O2Z9'), lines[2].replace('AMINA', 'AM1NA')];
    expect(correctByShape(misread)).toEqual(lines);
    expect(parseMrz(correctByShape(misread), TODAY)?.valid).toBe(true);
  });

  it('finds no zone on an image without one', async () => {
    expect(await read(await portrait('man'))).toBeNull();
  }, 60_000);
});
