import nicknames from './data/nicknames.json' with { type: 'json' };
import particles from './data/particles.json' with { type: 'json' };

/**
 * Equivalent name tokens: spellings of the same name across transliterations and languages
 * (Arabic ↔ Latin, Francophone West African, Cyrillic, Hebrew/Christian forms). Each group maps to
 * one canonical key; two tokens of the same group match as `equivalent` with the group's score.
 * Documented in screening/README.md ("Equivalent tokens"); extend by adding a group.
 */
export interface EquivalenceGroup {
  /** canonical key (also the documentation label) */
  key: string;
  tokens: string[];
  /** score given to two different tokens of the group (0–1) */
  score?: number;
}

export const EQUIVALENT_SCORE = 0.95;

export const EQUIVALENCE_GROUPS: EquivalenceGroup[] = [
  // "son of / daughter of" particles
  { key: 'bin', tokens: ['bin', 'ben', 'ibn', 'ibni', 'ibnu', 'bn', 'bint', 'binti', 'ould', 'wuld', 'walad', 'ag', 'oul'] },
  // "servant of" prefix (also merged with the next token by the normaliser: abd al rahman → abdrahman)
  { key: 'abd', tokens: ['abd', 'abdul', 'abdel', 'abdal', 'abdoul', 'abdu', 'abdou', 'abdur', 'abdus', 'abdel', 'abdil', 'abdol'] },
  { key: 'abu', tokens: ['abu', 'abou', 'abo', 'bou', 'abi'] },
  {
    key: 'muhammad',
    tokens: [
      'muhammad',
      'mohammad',
      'mohammed',
      'mohamed',
      'mohamad',
      'muhammed',
      'muhamad',
      'muhamed',
      'mohamud',
      'mohammod',
      'mouhamed',
      'mouhammad',
      'mouhamad',
      'mohamet',
      'mahomet',
      'mehmet',
      'muhammet',
      'mohd',
      'mhd',
      'mohammadou',
      'mouhamadou',
      'mahamat',
      'mahamad',
      'mohamadou',
      'muhamadu',
      'mohammadu',
      'muhammadu',
    ],
  },
  // Mamadou / Mamadu: West African forms of Muhammad, weaker (many distinct people)
  { key: 'mamadou', tokens: ['mamadou', 'mamadu', 'mamoudou', 'madou'] },
  // …and Mamadou as a form of Muhammad: a weaker equivalence (distinct names in practice)
  {
    key: 'muhammad~mamadou',
    tokens: ['mamadou', 'mamadu', 'muhammad', 'mohammad', 'mohammed', 'mohamed', 'mouhamadou', 'mohamadou'],
    score: 0.8,
  },
  { key: 'ahmad', tokens: ['ahmad', 'ahmed', 'ahmet', 'achmed', 'ahmet', 'ahmmad'] },
  { key: 'amadou', tokens: ['amadou', 'ahmadou', 'ahmadu', 'amadu', 'hamadou', 'hamadu'] },
  // West African forms ↔ the Arabic name: weaker (distinct given names in practice)
  { key: 'ahmad~amadou', tokens: ['ahmad', 'ahmed', 'amadou', 'ahmadou', 'ahmadu', 'amadu'], score: 0.85 },
  { key: 'mahmud', tokens: ['mahmud', 'mahmoud', 'mahmood', 'mahamoud', 'mahmut', 'mahmod'] },
  { key: 'mustafa', tokens: ['mustafa', 'moustafa', 'mostafa', 'mustapha', 'moustapha', 'mostapha', 'mustaffa', 'mostefa'] },
  { key: 'yusuf', tokens: ['yusuf', 'youssef', 'yousef', 'youssouf', 'yousouf', 'yusef', 'yousuf', 'youcef', 'yussuf', 'yusif', 'jusuf'] },
  // the same name across languages (Yusuf / Joseph, Ibrahim / Abraham…): equivalent, a little weaker
  {
    key: 'joseph',
    tokens: ['joseph', 'josef', 'iosif', 'yosef', 'giuseppe', 'jose', 'yusuf', 'youssef', 'yousef', 'youssouf'],
    score: 0.85,
  },
  { key: 'ibrahim', tokens: ['ibrahim', 'ebrahim', 'ibrahima', 'brahim', 'ibraheem', 'ibrahimo', 'ibrohim'] },
  { key: 'abraham', tokens: ['abraham', 'avraham', 'ibrahim', 'ebrahim', 'ibrahima'], score: 0.85 },
  { key: 'ismail', tokens: ['ismail', 'ismael', 'ismaila', 'esmail', 'smail', 'ismaeel', 'ismayil'] },
  { key: 'musa', tokens: ['musa', 'moussa', 'mousa', 'mussa'] },
  { key: 'moses', tokens: ['moses', 'moshe', 'musa', 'moussa'], score: 0.85 },
  { key: 'isa', tokens: ['isa', 'issa', 'eesa', 'yssa', 'iessa'] },
  {
    key: 'sulayman',
    tokens: [
      'sulayman',
      'suleiman',
      'sulaiman',
      'soliman',
      'suleyman',
      'souleymane',
      'souleimane',
      'sleiman',
      'slimane',
      'suleman',
      'sulaymon',
      'sulemana',
    ],
  },
  { key: 'solomon', tokens: ['solomon', 'salomon', 'sulayman', 'suleiman', 'sulaiman'], score: 0.85 },
  { key: 'umar', tokens: ['umar', 'omar', 'oumar', 'omer', 'umer', 'omara'] },
  {
    key: 'uthman',
    tokens: ['uthman', 'othman', 'osman', 'usman', 'ousmane', 'usmane', 'othmane', 'outhman', 'usmani', 'ousman', 'osmane', 'usumane'],
  },
  {
    key: 'husayn',
    tokens: [
      'husayn',
      'hussein',
      'husain',
      'hussain',
      'houssein',
      'hossein',
      'husein',
      'hussien',
      'housseini',
      'husseini',
      'hosseyn',
      'huseyin',
    ],
  },
  { key: 'hasan', tokens: ['hasan', 'hassan', 'hassane', 'hacen', 'hasen', 'hassen', 'hasanu'] },
  {
    key: 'abdullah',
    tokens: [
      'abdullah',
      'abdallah',
      'abdullahi',
      'abdoulaye',
      'abdulla',
      'abdellah',
      'abdulahi',
      'abdalla',
      'abdillah',
      'abdallahi',
      'abdoullahi',
      'abdala',
    ],
  },
  {
    key: 'abubakr',
    tokens: [
      'abubakr',
      'abubakar',
      'abubakari',
      'aboubakar',
      'aboubacar',
      'boubacar',
      'boubakar',
      'abubaker',
      'abubakir',
      'abubakre',
      'aboubakr',
      'abu bakr',
      'bubakar',
      'abibakar',
    ],
  },
  { key: 'yaqub', tokens: ['yaqub', 'yacoub', 'yacub', 'yakub', 'yaakub', 'yakubu', 'yacouba', 'yakoub', 'yagoub', 'yaqoob'] },
  { key: 'jacob', tokens: ['jacob', 'jakob', 'yaakov', 'iakov', 'jacques', 'yaqub', 'yacoub', 'yakubu'], score: 0.85 },
  { key: 'dawud', tokens: ['dawud', 'daoud', 'dawood', 'daud', 'dauda', 'daouda', 'davud', 'dawuda'] },
  { key: 'david', tokens: ['david', 'dawit', 'dawud', 'daoud', 'dauda'], score: 0.85 },
  { key: 'idris', tokens: ['idris', 'idriss', 'driss', 'edris', 'idrissa', 'idrisa'] },
  { key: 'said', tokens: ['said', 'saeed', 'saied', 'saiid', 'seid'] },
  { key: 'said~seydou', tokens: ['said', 'saeed', 'seydou', 'saidou', 'seidou', 'saidu'], score: 0.85 },
  { key: 'sayyid', tokens: ['sayyid', 'sayed', 'seyed', 'syed', 'sayyed', 'seyyed', 'sayid', 'sied'] },
  { key: 'jamal', tokens: ['jamal', 'gamal', 'djamel', 'jamel', 'djamal', 'jamaal', 'camal'] },
  { key: 'jamil', tokens: ['jamil', 'gamil', 'djamil', 'jameel', 'gameel', 'jemil'] },
  { key: 'jafar', tokens: ['jafar', 'jaafar', 'jaffar', 'djafar', 'gaafar', 'jafer'] },
  { key: 'qasim', tokens: ['qasim', 'kassim', 'qassem', 'kasim', 'gassim', 'qassim', 'kacem', 'kassem', 'kasem', 'qasem'] },
  { key: 'karim', tokens: ['karim', 'kareem', 'kerim', 'karimou'] },
  { key: 'rashid', tokens: ['rashid', 'rachid', 'rasheed', 'rashed', 'rached', 'rachide'] },
  { key: 'tariq', tokens: ['tariq', 'tarek', 'tarik', 'tareq', 'tarick'] },
  { key: 'zakariya', tokens: ['zakariya', 'zakaria', 'zakariyya', 'zakariyah', 'zacharia', 'zachariah', 'zakari', 'zakarya', 'zakariyau'] },
  { key: 'salih', tokens: ['salih', 'saleh', 'salah', 'saleh', 'salhi'], score: 0.9 },
  { key: 'faysal', tokens: ['faysal', 'faisal', 'faycal', 'faical', 'fayssal', 'feisal'] },
  { key: 'nasir', tokens: ['nasir', 'nasser', 'naser', 'nassir', 'nacer', 'nasr'], score: 0.9 },
  { key: 'fatima', tokens: ['fatima', 'fatimah', 'fatma', 'fatoumata', 'fatimata', 'fatou', 'fadimata'] },
  { key: 'aisha', tokens: ['aisha', 'aicha', 'aissatou', 'ayesha', 'aysha', 'aishatu', 'aichatou', 'ayisha', 'aishat'] },
  {
    key: 'khadija',
    tokens: ['khadija', 'khadidja', 'khadijah', 'khadidia', 'kadidia', 'kadidiatou', 'khadidiatou', 'hadiza', 'khadijat', 'hadizat'],
  },
  { key: 'tijani', tokens: ['tijani', 'tidiane', 'tidjane', 'tidjani', 'tijaniyy', 'tidiani'] },
  { key: 'siddiq', tokens: ['siddiq', 'sidiki', 'siddik', 'seddik', 'saddiq', 'sidiq', 'siddique'] },
  { key: 'maryam', tokens: ['maryam', 'mariam', 'mariama', 'meriem', 'miriam', 'maryama', 'meryem', 'mariame'] },
  { key: 'khalid', tokens: ['khalid', 'khaled', 'khaleed', 'halid', 'khalidou', 'khaleel'], score: 0.9 },
  { key: 'hamid', tokens: ['hamid', 'hameed', 'hamed', 'hamidou', 'hamidu'] },
  { key: 'abbas', tokens: ['abbas', 'abass', 'abas'] },
  { key: 'aziz', tokens: ['aziz', 'azeez', 'azziz', 'aziz'] },
  { key: 'rahman', tokens: ['rahman', 'rahmane', 'rehman', 'rahmon', 'rahmani'], score: 0.9 },
  { key: 'usama', tokens: ['usama', 'osama', 'oussama', 'ousama', 'usamah', 'osamah'] },
  { key: 'ayman', tokens: ['ayman', 'aiman', 'eyman', 'aymen'] },
  {
    key: 'qadhafi',
    tokens: [
      'qadhafi',
      'qaddafi',
      'gaddafi',
      'gadhafi',
      'kadhafi',
      'kaddafi',
      'qadafi',
      'gadafi',
      'kadafi',
      'khadafi',
      'gheddafi',
      'kadhdhafi',
      'qathafi',
    ],
  },
  { key: 'hamza', tokens: ['hamza', 'hamzah', 'hamzat', 'hamzaoui'], score: 0.9 },
  { key: 'bashir', tokens: ['bashir', 'bachir', 'basheer', 'bechir', 'béchir'] },
  { key: 'sharif', tokens: ['sharif', 'cherif', 'chérif', 'shareef', 'sherif', 'charif', 'cheriff'] },
  { key: 'ashraf', tokens: ['ashraf', 'achraf', 'ashref'] },
  { key: 'shaykh', tokens: ['shaykh', 'sheikh', 'shaikh', 'cheikh', 'sheik', 'chaikh', 'shekh', 'chekh'] },
  { key: 'habib', tokens: ['habib', 'habeeb', 'habibou', 'habibu'] },
  { key: 'yahya', tokens: ['yahya', 'yahia', 'yehia', 'yahaya', 'yaya', 'yahiya'] },
  { key: 'ali', tokens: ['ali', 'aly', 'alli', 'aliyu', 'aliou', 'alioune', 'aliu'], score: 0.9 },
  { key: 'amin', tokens: ['amin', 'amine', 'ameen', 'aminu', 'aminou'] },
  { key: 'anwar', tokens: ['anwar', 'anouar', 'anwer', 'enver'] },
  { key: 'nur', tokens: ['nur', 'nour', 'noor', 'nuur'] },
  { key: 'abdulaziz', tokens: ['abdulaziz', 'abdelaziz', 'abdulazeez', 'abdoulaziz', 'abdelaaziz'] },
  // Cyrillic transliterations (BGN/PCGN, French, German, passport forms)
  { key: 'aleksandr', tokens: ['aleksandr', 'alexander', 'alexandr', 'aleksander', 'alexandre', 'oleksandr', 'alexandru', 'aliaksandr'] },
  { key: 'aleksey', tokens: ['aleksey', 'alexei', 'alexey', 'aleksei', 'oleksiy', 'oleksii', 'alexis'] },
  { key: 'sergey', tokens: ['sergey', 'sergei', 'serguei', 'sergiy', 'serhiy', 'serhii', 'sergej', 'serge'] },
  { key: 'yevgeniy', tokens: ['yevgeniy', 'yevgeny', 'evgeny', 'evgeniy', 'evgenii', 'yevgenii', 'eugene', 'ievgen', 'yevhen', 'evgueni'] },
  { key: 'dmitriy', tokens: ['dmitriy', 'dmitry', 'dmitri', 'dmitrii', 'dimitri', 'dmytro', 'dimitry'] },
  { key: 'yuriy', tokens: ['yuriy', 'yuri', 'yury', 'iouri', 'yurii', 'iurii', 'jurij', 'yurij'] },
  { key: 'mikhail', tokens: ['mikhail', 'mikhael', 'mykhailo', 'mihail', 'michail'] },
  { key: 'michael', tokens: ['michael', 'michel', 'mikael', 'miguel', 'mikhail', 'mykhailo'], score: 0.85 },
  { key: 'nikolay', tokens: ['nikolay', 'nikolai', 'nicolai', 'mykola', 'nikolaj', 'nicolae'] },
  { key: 'andrey', tokens: ['andrey', 'andrei', 'andriy', 'andrii', 'andrej', 'andre', 'andrew'], score: 0.85 },
  { key: 'vyacheslav', tokens: ['vyacheslav', 'viacheslav', 'viatcheslav', 'vjaceslav', 'vyatcheslav'] },
  { key: 'pyotr', tokens: ['pyotr', 'petr', 'piotr', 'peter', 'pierre', 'petro', 'pietro'], score: 0.85 },
  { key: 'pavel', tokens: ['pavel', 'paul', 'pavlo', 'paulo', 'pablo'], score: 0.85 },
  { key: 'ivan', tokens: ['ivan', 'ivane', 'iwan'] },
  { key: 'yelena', tokens: ['yelena', 'elena', 'helena', 'olena', 'jelena', 'ielena'] },
  { key: 'gennadiy', tokens: ['gennadiy', 'gennady', 'gennadi', 'gennadii', 'hennadiy'] },
  { key: 'vladimir', tokens: ['vladimir', 'volodymyr', 'wladimir', 'uladzimir', 'vladimer'] },
  { key: 'grigoriy', tokens: ['grigoriy', 'grigory', 'grigori', 'hryhoriy', 'gregory', 'gregoire', 'grigorii'], score: 0.85 },
  // common hypocorisms (English, Russian): the full name and its short form, a little weaker
  { key: 'william~', tokens: ['william', 'bill', 'billy', 'will', 'willy', 'willie', 'liam'], score: 0.85 },
  { key: 'robert~', tokens: ['robert', 'bob', 'bobby', 'rob', 'robbie', 'bert'], score: 0.85 },
  { key: 'james~', tokens: ['james', 'jim', 'jimmy', 'jamie'], score: 0.85 },
  { key: 'john~', tokens: ['john', 'jack', 'johnny', 'jon'], score: 0.85 },
  { key: 'richard~', tokens: ['richard', 'dick', 'rick', 'ricky', 'richie'], score: 0.85 },
  { key: 'thomas~', tokens: ['thomas', 'tom', 'tommy'], score: 0.85 },
  { key: 'joseph~', tokens: ['joseph', 'joe', 'joey', 'jo'], score: 0.85 },
  { key: 'anthony~', tokens: ['anthony', 'antony', 'tony', 'antoine', 'antonio'], score: 0.85 },
  { key: 'michael~', tokens: ['michael', 'mike', 'mick', 'mickey'], score: 0.85 },
  { key: 'elizabeth~', tokens: ['elizabeth', 'liz', 'lizzie', 'beth', 'betty', 'eliza', 'elisabeth'], score: 0.85 },
  { key: 'margaret~', tokens: ['margaret', 'maggie', 'peggy', 'meg', 'marguerite'], score: 0.85 },
  { key: 'katherine~', tokens: ['katherine', 'catherine', 'kathryn', 'kate', 'kathy', 'cathy', 'katie', 'catherina'], score: 0.85 },
  { key: 'charles~', tokens: ['charles', 'charlie', 'chuck', 'carlos', 'karl'], score: 0.85 },
  { key: 'edward~', tokens: ['edward', 'ed', 'eddie', 'ted', 'teddy', 'edouard'], score: 0.85 },
  { key: 'aleksandr~', tokens: ['aleksandr', 'alexander', 'alexandre', 'alex', 'sasha', 'sacha', 'shura'], score: 0.85 },
  { key: 'dmitriy~', tokens: ['dmitriy', 'dmitry', 'dmitri', 'dima'], score: 0.85 },
  { key: 'vladimir~', tokens: ['vladimir', 'volodya', 'vova', 'volodymyr'], score: 0.85 },
  { key: 'mikhail~', tokens: ['mikhail', 'misha'], score: 0.85 },
  { key: 'nikolay~', tokens: ['nikolay', 'nikolai', 'kolya'], score: 0.85 },
  { key: 'yevgeniy~', tokens: ['yevgeniy', 'yevgeny', 'evgeny', 'zhenya'], score: 0.85 },
  { key: 'ivan~', tokens: ['ivan', 'vanya'], score: 0.85 },
  // Francophone / anglophone / lusophone given names common in African records
  {
    key: 'jean',
    tokens: ['jean', 'john', 'juan', 'joao', 'johann', 'johannes', 'giovanni', 'yohannes', 'yohanes', 'ioannis'],
    score: 0.85,
  },
  { key: 'pierre', tokens: ['pierre', 'peter', 'pedro', 'pietro'], score: 0.85 },
  { key: 'emmanuel', tokens: ['emmanuel', 'emanuel', 'immanuel', 'emmanuelle', 'manuel'], score: 0.85 },
  { key: 'mamadi', tokens: ['mamadi', 'mamady', 'mamedi'] },
  { key: 'lamine', tokens: ['lamine', 'lamin', 'alamine', 'alamin', 'el amin', 'elamine'] },
  { key: 'cheick', tokens: ['cheick', 'cheikh', 'sheikh', 'chaikh'] },
  { key: 'boubacar', tokens: ['boubacar', 'aboubacar', 'abubakar', 'boubakar', 'bubakar'] },
  { key: 'ousseini', tokens: ['ousseini', 'ousseyni', 'housseini', 'hussaini'] },
  { key: 'seydou', tokens: ['seydou', 'seidou', 'saidou', 'seidu', 'saidu'] },
  { key: 'souleymane', tokens: ['souleymane', 'suleimane', 'souleimane', 'sulemana'] },
  { key: 'sekou', tokens: ['sekou', 'sekouba', 'seku', 'sékou'] },
  { key: 'oumarou', tokens: ['oumarou', 'umaru', 'oumaru', 'umarou'] },
  { key: 'diallo', tokens: ['diallo', 'jallow', 'jalloh', 'djallo', 'diallou'] },
  { key: 'toure', tokens: ['toure', 'touray', 'ture', 'turay'] },
  { key: 'traore', tokens: ['traore', 'trawally', 'trawelly', 'tarawally', 'traoure'], score: 0.9 },
  { key: 'sow', tokens: ['sow', 'sowe'] },
  { key: 'ndiaye', tokens: ['ndiaye', 'njie', 'njai', 'ndiay', 'njay'] },
  { key: 'diop', tokens: ['diop', 'jobe', 'job', 'diob'], score: 0.9 },
  { key: 'ceesay', tokens: ['ceesay', 'sise', 'cisse', 'sisay', 'sissay', 'cissé'] },
  { key: 'keita', tokens: ['keita', 'keyta', 'kaita'] },
  { key: 'coulibaly', tokens: ['coulibaly', 'kulibali', 'kulibaly', 'koulibaly', 'culibaly'] },
  { key: 'conde', tokens: ['conde', 'konde', 'condeh', 'kondeh'] },
  { key: 'kone', tokens: ['kone', 'konneh', 'koné'] },
];

/** token → [group key, score] (a token may belong to several groups; the best score wins). */
const TOKEN_GROUPS = new Map<string, { key: string; score: number }[]>();
for (const g of EQUIVALENCE_GROUPS) {
  if ((g.score ?? EQUIVALENT_SCORE) <= 0) continue;
  for (const raw of g.tokens) {
    const t = raw
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^a-z]/g, '');
    if (!t) continue;
    const list = TOKEN_GROUPS.get(t) ?? [];
    if (!list.some((x) => x.key === g.key)) list.push({ key: g.key, score: g.score ?? EQUIVALENT_SCORE });
    TOKEN_GROUPS.set(t, list);
  }
}

/** Group keys of a normalised token (empty when it is in no group). */
export function equivalenceKeys(token: string): string[] {
  return (TOKEN_GROUPS.get(token) ?? []).map((g) => g.key);
}

/** Both tokens are known names of different groups (Hassan vs Hussein, Ahmad vs Mahmud): distinct names. */
export function knownDistinct(a: string, b: string): boolean {
  const ga = TOKEN_GROUPS.get(a);
  const gb = TOKEN_GROUPS.get(b);
  return !!ga && !!gb && !ga.some((x) => gb.some((y) => x.key === y.key));
}

/** Score of two different tokens being equivalent (0 when no common group). */
export function equivalenceScore(a: string, b: string): number {
  const ga = TOKEN_GROUPS.get(a);
  const gb = TOKEN_GROUPS.get(b);
  if (!ga || !gb) return 0;
  let best = 0;
  for (const x of ga) for (const y of gb) if (x.key === y.key) best = Math.max(best, Math.min(x.score, y.score));
  return best;
}

/**
 * Nicknames and short forms of given names (Ted ~ Theodore, Bill ~ William), from the list of
 * carltonnorthern/nicknames (data/nicknames.json, Apache-2.0): a name and a shorter nickname of it, or
 * two nicknames of one name (Ted ~ Teddy), match with NICKNAME_SCORE. Kept apart from the groups above:
 * a name of the list that is in no group is no "known different name".
 */
export const NICKNAME_SCORE = 0.85;
const PARTICLE_WORDS = new Set(particles.particles);
const NICKNAME_ROOTS = new Map<string, Set<string>>();
for (const [name, nicks] of Object.entries(nicknames.nicknames)) {
  // a nickname is shorter than its name: the list also links names of one length both ways (Robert, Rupert)
  for (const t of [name, ...nicks.filter((n) => n.length < name.length)]) {
    // two-letter nicknames and particles (Al, Ed, Ben) say too little, and "al"/"ben" are Arabic particles
    if (!/^[a-z]{3,}$/.test(t) || PARTICLE_WORDS.has(t)) continue;
    const roots = NICKNAME_ROOTS.get(t) ?? new Set<string>();
    roots.add(name);
    NICKNAME_ROOTS.set(t, roots);
  }
}

/** The names a token is a nickname of, and the token itself when it has nicknames (blocking keys). */
export function nicknameRoots(token: string): string[] {
  return [...(NICKNAME_ROOTS.get(token) ?? [])];
}

/** Whether two different tokens are a name and its nickname, or two nicknames of one name. */
export function areNicknames(a: string, b: string): boolean {
  const ra = NICKNAME_ROOTS.get(a);
  const rb = NICKNAME_ROOTS.get(b);
  if (!ra || !rb) return false;
  for (const r of ra) if (rb.has(r)) return true;
  return false;
}

/** A token known as a person's name (a group above or the nickname list): such names spell no acronym. */
export function isKnownName(token: string): boolean {
  return TOKEN_GROUPS.has(token) || NICKNAME_ROOTS.has(token);
}
