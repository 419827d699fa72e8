import sharp from 'sharp';
import { AMINA, idCardBack, passportPage, td1 } from '../../../../test/support/documents.js';
import { portrait } from '../../../../test/support/faces.js';
import { estimateSkew } from './skew.js';

describe('page skew', () => {
  it.each([-9, -4.5, 0, 2, 7])('measures a page turned by %s° to within half a degree', async (degrees) => {
    for (const page of [await idCardBack(td1(AMINA)), await passportPage(AMINA, await portrait('woman'))]) {
      const turned = await sharp(page).rotate(degrees, { background: '#f1efe6' }).jpeg({ quality: 80 }).toBuffer();
      expect(Math.abs((await estimateSkew(turned)) - degrees)).toBeLessThanOrEqual(0.5);
    }
  });
});
