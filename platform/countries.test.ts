import { GraphQLCountryCode } from 'graphql-scalars';
import { alpha2Of, isCountryCode } from './countries.js';

const EVERY_PAIR = Array.from({ length: 26 * 26 }, (_, i) => String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26)));

describe('country codes', () => {
  it('are the codes the CountryCode scalar reads back, no other', () => {
    const scalarTakes = (code: string) => {
      try {
        GraphQLCountryCode.parseValue(code);
        return true;
      } catch {
        return false;
      }
    };
    expect(EVERY_PAIR.filter(isCountryCode)).toEqual(EVERY_PAIR.filter(scalarTakes));
    expect(EVERY_PAIR.filter(isCountryCode)).toHaveLength(250);
  });

  it('take assigned codes in uppercase only (Kosovo as lists write it), and map alpha-3 codes', () => {
    expect(['KE', 'NG', 'XK'].map(isCountryCode)).toEqual([true, true, true]);
    expect(['ke', 'UK', 'EU', 'ZZ', 'KEN', ''].map(isCountryCode)).toEqual([false, false, false, false, false, false]);
    expect([alpha2Of('KEN'), alpha2Of('CIV'), alpha2Of('XXX')]).toEqual(['KE', 'CI', null]);
  });
});
