import anyAscii from 'any-ascii';
import countries from 'i18n-iso-countries';
import de from 'i18n-iso-countries/langs/de.json' with { type: 'json' };
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import es from 'i18n-iso-countries/langs/es.json' with { type: 'json' };
import fr from 'i18n-iso-countries/langs/fr.json' with { type: 'json' };
import it from 'i18n-iso-countries/langs/it.json' with { type: 'json' };
import pt from 'i18n-iso-countries/langs/pt.json' with { type: 'json' };
import ru from 'i18n-iso-countries/langs/ru.json' with { type: 'json' };
import tr from 'i18n-iso-countries/langs/tr.json' with { type: 'json' };

/**
 * Words that make an entity name another entity when only one of two names has them: a country
 * (Banco Santander / Banco Santander Mexico, one-word country names in English, French, German,
 * Spanish, Portuguese, Italian, Russian and Turkish, from the i18n-iso-countries package) or a branch word (Branch, Filial, Sucursal, Subsidiary, Representative
 * Office…, written for this engine).
 */
const BRANCH_WORDS = [
  'branch',
  'branches',
  'filial',
  'filiale',
  'filiala',
  'sucursal',
  'succursale',
  'subsidiary',
  'office',
  'representative',
  'representation',
  'predstavitelstvo',
  'affiliate',
  'division',
];

let words: Set<string> | null = null;

function qualifierWords(): Set<string> {
  if (words) return words;
  const out = new Set<string>(BRANCH_WORDS);
  for (const lang of [en, fr, de, es, pt, it, ru, tr]) {
    countries.registerLocale(lang);
    for (const names of Object.values(countries.getNames(lang.locale, { select: 'all' }))) {
      for (const name of names) {
        const tokens = anyAscii(name)
          .toLowerCase()
          .replace(/['’]/g, '')
          .split(/[^a-z]+/)
          .filter(Boolean);
        if (tokens.length === 1 && tokens[0].length >= 4) out.add(tokens[0]);
      }
    }
  }
  words = out;
  return out;
}

export function isQualifierWord(token: string): boolean {
  return qualifierWords().has(token);
}
