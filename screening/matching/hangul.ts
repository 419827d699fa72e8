/**
 * Latin spellings of a Hangul syllable in the romanisations found on lists and documents: Revised
 * Romanization (2000; 김정은 → gim jeong eun, what any-ascii writes), McCune–Reischauer without its
 * diacritics and apostrophes (kim chong un, the North's and older Southern usage) and the common
 * spellings of family names (Kim, Lee/Rhee/Ri, Park/Pak, Choi, Jung/Chung, Yoon, Ahn…). Built from
 * the jamo of the syllable: initial consonant × vowel × final consonant, each with its variants.
 * Both tables written for this engine from the two systems' published tables.
 */

const INITIALS = [
  ['g', 'k'], // ㄱ
  ['kk', 'gg', 'k'], // ㄲ
  ['n'], // ㄴ
  ['d', 't'], // ㄷ
  ['tt', 'dd'], // ㄸ
  ['r', 'l', 'n', ''], // ㄹ (initial ㄹ is written n or dropped in the South: Ri/Lee/Yi)
  ['m'], // ㅁ
  ['b', 'p'], // ㅂ
  ['pp', 'bb'], // ㅃ
  ['s', 'sh'], // ㅅ
  ['ss', 's'], // ㅆ
  [''], // ㅇ
  ['j', 'ch'], // ㅈ
  ['jj', 'tch'], // ㅉ
  ['ch'], // ㅊ
  ['k'], // ㅋ
  ['t'], // ㅌ
  ['p'], // ㅍ
  ['h'], // ㅎ
];

const VOWELS = [
  ['a'], // ㅏ
  ['ae', 'e'], // ㅐ
  ['ya'], // ㅑ
  ['yae', 'ye'], // ㅒ
  ['eo', 'o', 'u'], // ㅓ
  ['e'], // ㅔ
  ['yeo', 'yo', 'you'], // ㅕ
  ['ye'], // ㅖ
  ['o'], // ㅗ
  ['wa'], // ㅘ
  ['wae'], // ㅙ
  ['oe', 'oi', 'we'], // ㅚ
  ['yo'], // ㅛ
  ['u', 'oo'], // ㅜ
  ['wo'], // ㅝ
  ['we'], // ㅞ
  ['wi'], // ㅟ
  ['yu', 'yoo'], // ㅠ
  ['eu', 'u'], // ㅡ
  ['ui', 'ei', 'i'], // ㅢ
  ['i', 'ee'], // ㅣ
];

const FINALS = [
  [''],
  ['k', 'g'], // ㄱ
  ['k'], // ㄲ
  ['k'], // ㄳ
  ['n'], // ㄴ
  ['n'], // ㄵ
  ['n'], // ㄶ
  ['t', 'd'], // ㄷ
  ['l', 'r'], // ㄹ
  ['k'], // ㄺ
  ['m'], // ㄻ
  ['l'], // ㄼ
  ['l'], // ㄽ
  ['l'], // ㄾ
  ['p'], // ㄿ
  ['l'], // ㅀ
  ['m'], // ㅁ
  ['p', 'b'], // ㅂ
  ['p'], // ㅄ
  ['t', 's'], // ㅅ
  ['t'], // ㅆ
  ['ng'], // ㅇ
  ['t'], // ㅈ
  ['t'], // ㅊ
  ['k'], // ㅋ
  ['t'], // ㅌ
  ['p'], // ㅍ
  ['t', 'h'], // ㅎ
];

/** Common spellings of family names that the jamo rules do not give (an added h, oo for u, Rhee…). */
const FAMILY_NAMES: Record<string, string[]> = {
  이: ['lee', 'yi', 'rhee', 'ri', 'li', 'ree'],
  리: ['ri', 'li', 'lee', 'rhee'],
  박: ['park', 'pak', 'bak'],
  최: ['choi', 'choe', 'chey'],
  정: ['jung', 'chung', 'jeong', 'chong', 'jong'],
  노: ['noh', 'roh', 'no', 'ro'],
  류: ['ryu', 'yoo', 'yu', 'ryoo', 'lyu'],
  유: ['yoo', 'yu'],
  오: ['oh', 'o'],
  신: ['shin', 'sin'],
  임: ['lim', 'im', 'rim'],
  림: ['rim', 'lim', 'im'],
  문: ['moon', 'mun'],
  우: ['woo', 'wu', 'u'],
  윤: ['yoon', 'yun'],
  안: ['ahn', 'an'],
  손: ['sohn', 'son'],
  고: ['koh', 'ko', 'go'],
  허: ['huh', 'hur', 'heo'],
  현: ['hyun', 'hyon', 'hyeon'],
  전: ['jeon', 'jun', 'chun', 'chon', 'jon'],
  량: ['ryang', 'yang'],
  명: ['myung', 'myong', 'myeong'],
  영: ['young', 'yong', 'yeong'],
  성: ['sung', 'song', 'seong'],
  경: ['kyung', 'kyong', 'gyeong'],
  형: ['hyung', 'hyong', 'hyeong'],
};

export const HANGUL_RE = /[\uAC00-\uD7A3]/u;

/** Latin spellings of one Hangul syllable (empty for any other character). */
export function hangulSpellings(syllable: string): string[] {
  const code = syllable.charCodeAt(0) - 0xac00;
  if (syllable.length !== 1 || code < 0 || code > 11171) return [];
  const initial = INITIALS[Math.floor(code / 588)];
  const vowel = VOWELS[Math.floor((code % 588) / 28)];
  const final = FINALS[code % 28];
  const out = new Set<string>(FAMILY_NAMES[syllable] ?? []);
  for (const i of initial) for (const v of vowel) for (const f of final) out.add(i + v + f);
  out.delete('');
  return [...out];
}
