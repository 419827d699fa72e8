import { addressTokens, compareAddresses } from './address-match.js';

describe('address comparison', () => {
  it('normalises case, accents, punctuation and common abbreviations', () => {
    expect(addressTokens('12, Moi Ave.')).toEqual(['12', 'moi', 'avenue']);
    expect(addressTokens('12 MOI AVENUE')).toEqual(['12', 'moi', 'avenue']);
    expect(addressTokens('4 Baker St')).toEqual(addressTokens('4 baker street'));
    expect(addressTokens('9 Ngong Rd')).toEqual(addressTokens('9 Ngong Road'));
    expect(addressTokens('25 Rue Félix-Faure')).toEqual(['25', 'rue', 'felix', 'faure']);
    expect(addressTokens('P.O. Box 3021')).toEqual(['pobox', '3021']);
    expect(addressTokens('PO Box 3021')).toEqual(['pobox', '3021']);
    expect(addressTokens('B.P. 3021')).toEqual(['pobox', '3021']);
    expect(addressTokens('Boîte postale 3021')).toEqual(['pobox', '3021']);
    expect(addressTokens("Boulevard de l'Indépendance")).toEqual(['boulevard', 'independance']);
    expect(addressTokens('Bd de l’Indépendance')).toEqual(['boulevard', 'independance']);
  });

  it('matches the same address written differently, and says so', () => {
    const result = compareAddresses('12 Moi Ave, Nairobi', '12 MOI AVENUE, Apt 4, NAIROBI 00100');
    expect(result.match).toBe(true);
    expect(result.score).toBeGreaterThanOrEqual(0.85);
    expect(result.missing).toEqual([]);
    expect(result.extra).toEqual(['apartment', '4', '00100']);
    expect(result.explanation).toMatch(/^Every part of the declared address is on the document\..*: match\.$/);
    expect(compareAddresses('P.O. Box 3021, Kisumu', 'PO BOX 3021 KISUMU').match).toBe(true);
  });

  it('tolerates a letter misread by OCR, never a different number', () => {
    const misread = compareAddresses('25 Rue Felix Faure, Dakar', '25 Rue Fe1ix Faure Dakar');
    expect(misread.score).toBeGreaterThan(0.85);
    expect(compareAddresses('Kenyatta Avenue', 'Kenyata Avenue').missing).toEqual([]);
    const otherHouse = compareAddresses('14 Moi Avenue, Nairobi', '12 Moi Avenue, Nairobi');
    expect(otherHouse.match).toBe(false);
    expect(otherHouse.missingNumbers).toEqual(['14']);
    expect(otherHouse.score).toBeGreaterThanOrEqual(0.5);
    expect(otherHouse.explanation).toMatch(/the number 14 differs.*uncertain\.$/);
  });

  it('tells a different address apart', () => {
    const result = compareAddresses('45 Kenyatta Road, Mombasa', '12 Moi Avenue, Nairobi 00100');
    expect(result.match).toBe(false);
    expect(result.score).toBeLessThan(0.5);
    expect(result.explanation).toMatch(/mismatch\.$/);
  });

  it('scores nothing when a side has no words', () => {
    expect(compareAddresses('', '12 Moi Avenue')).toMatchObject({ score: 0, match: false });
    expect(compareAddresses('12 Moi Avenue', '  ,, ')).toMatchObject({ score: 0, match: false });
  });
});
