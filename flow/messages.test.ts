import en from './messages/en.json';
import fr from './messages/fr.json';
import { chooseLocale, translator } from './src/i18n';

/** The message files: the same keys, the same placeholders, nothing left untranslated by accident. */
describe('flow messages', () => {
  const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

  it('en and fr have the same keys', () => {
    expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort());
  });

  it('each French message has the English one’s placeholders, and is not empty', () => {
    for (const [key, text] of Object.entries(en)) {
      const french = (fr as Record<string, string>)[key]!;
      expect([key, placeholders(french)]).toEqual([key, placeholders(text)]);
      expect(french.trim()).not.toBe('');
    }
  });

  it('French messages are French: only language names and short codes read the same', () => {
    const same = Object.keys(en).filter((key) => (fr as Record<string, string>)[key] === (en as Record<string, string>)[key]);
    expect(same.sort()).toEqual(['code.label', 'language.en', 'language.fr'].sort());
  });

  it('chooses ?lang= over the flow’s locale, English when neither is known', () => {
    expect(chooseLocale('fr', 'en')).toBe('fr');
    expect(chooseLocale(null, 'fr-SN')).toBe('fr');
    expect(chooseLocale('sw', 'de')).toBe('en');
    expect(chooseLocale('EN', 'fr')).toBe('en');
  });

  it('fills placeholders', () => {
    expect(translator('fr')('progress.count', { current: 2, total: 3 })).toBe('Étape 2 sur 3');
    expect(translator('en')('result.continue', { organization: 'Acme' })).toBe('Continue to Acme');
  });
});
