import { seeded, type Random } from './random.js';

/**
 * Proofs of address generated for the address bench: utility, telephone and bank bills of
 * issuers of several African countries, in English or French, seeded so a corpus is the same on
 * every run. What varies: the issuer and its country, the layout, the font, the labels, the date's
 * printed form, the holder's address (street and number, plot, P.O. Box, quarter, city, postal
 * code) and the bill's age (recent, older than the accepted three months, dated in the future).
 * Each bill also prints what a careless reader could take instead: the issuer's own postal
 * address, a due date, a billing period, an account number.
 */

/** The day the bills are read on: their ages are counted to it. */
export const TODAY = '2026-11-29';

export type Lang = 'en' | 'fr';
export const LANGS: readonly Lang[] = ['en', 'fr'];

export type Layout = 'rows' | 'columns' | 'letter';
export const LAYOUTS: readonly Layout[] = ['rows', 'columns', 'letter'];

/** Whether the bill is accepted by age: recent (within three months), too old, or dated ahead of today. */
export type AgeKind = 'recent' | 'old' | 'future';

export interface Bill {
  lang: Lang;
  country: string;
  layout: Layout;
  /** The issuer's name as its heading prints it. */
  issuer: string;
  /** The issuer's own address, printed under its name (never the holder's). */
  issuerAddress: string;
  /** The kind of bill, under the heading. */
  title: string;
  holder: string;
  /** The holder's address, line by line. */
  address: string[];
  /** YYYY-MM-DD */
  issueDate: string;
  /** The issue date as printed. */
  printedDate: string;
  dateLabel: string;
  /** Label–value rows besides name, address and issue date (account, period, due date, amount). */
  others: Array<[string, string]>;
  /** Labels of the name and address. */
  nameLabel: string;
  addressLabel: string;
  age: AgeKind;
  /** Days from the issue date to TODAY (negative: in the future). */
  ageDays: number;
}

interface Issuer {
  name: string;
  /** utility: electricity or water; telco; bank */
  kind: 'electricity' | 'water' | 'telco' | 'bank';
  address: string;
}

interface Country {
  name: string;
  lang: Lang;
  currency: string;
  issuers: Issuer[];
  /** Street names, quarters and cities, with an optional postal code per city. */
  streets: string[];
  quarters: string[];
  cities: Array<[city: string, postalCode: string | null]>;
}

const COUNTRIES: Country[] = [
  {
    name: 'Nigeria',
    lang: 'en',
    currency: 'NGN',
    issuers: [
      { name: 'Ikeja Electric', kind: 'electricity', address: '4 Obafemi Awolowo Way, Ikeja, Lagos' },
      { name: 'Eko Electricity Distribution Company', kind: 'electricity', address: '24/25 Marina, Lagos Island' },
      { name: 'Lagos Water Corporation', kind: 'water', address: 'Ijora Causeway, Ijora, Lagos' },
      { name: 'MTN Nigeria', kind: 'telco', address: 'Golden Plaza, Falomo, Ikoyi, Lagos' },
      { name: 'Guaranty Trust Bank', kind: 'bank', address: 'Plot 635 Akin Adesola Street, Victoria Island, Lagos' },
    ],
    streets: [
      'Adeola Odeku Street',
      'Allen Avenue',
      'Awolowo Road',
      'Herbert Macaulay Way',
      'Admiralty Way',
      'Ogunlana Drive',
      'Bode Thomas Street',
    ],
    quarters: ['Victoria Island', 'Ikoyi', 'Surulere', 'Lekki Phase 1', 'Yaba', 'Ikeja GRA', 'Wuse 2'],
    cities: [
      ['Lagos', '101241'],
      ['Abuja', '900288'],
      ['Ibadan', null],
      ['Port Harcourt', null],
    ],
  },
  {
    name: 'Kenya',
    lang: 'en',
    currency: 'KES',
    issuers: [
      { name: 'Kenya Power and Lighting Company', kind: 'electricity', address: 'Stima Plaza, Kolobot Road, Nairobi' },
      { name: 'Nairobi City Water and Sewerage Company', kind: 'water', address: 'Kampala Road, Industrial Area, Nairobi' },
      { name: 'Safaricom', kind: 'telco', address: 'Safaricom House, Waiyaki Way, Westlands' },
      { name: 'Equity Bank Kenya', kind: 'bank', address: 'Equity Centre, Hospital Road, Upper Hill' },
    ],
    streets: ['Moi Avenue', 'Ngong Road', 'Kenyatta Avenue', 'Waiyaki Way', 'Argwings Kodhek Road', 'Kimathi Street', 'Lenana Road'],
    quarters: ['Kilimani', 'Westlands', 'Lavington', 'Karen', 'Parklands', 'South B', 'Kileleshwa'],
    cities: [
      ['Nairobi', '00100'],
      ['Mombasa', '80100'],
      ['Kisumu', '40100'],
      ['Nakuru', '20100'],
    ],
  },
  {
    name: 'Ghana',
    lang: 'en',
    currency: 'GHS',
    issuers: [
      { name: 'Electricity Company of Ghana', kind: 'electricity', address: 'Electro-Volta House, Accra' },
      { name: 'Ghana Water Company Limited', kind: 'water', address: '28th February Road, Accra' },
      { name: 'Vodafone Ghana', kind: 'telco', address: 'Telecom House, Ring Road Central, Accra' },
      { name: 'Ecobank Ghana', kind: 'bank', address: '2 Morocco Lane, Off Independence Avenue, Accra' },
    ],
    streets: [
      'Oxford Street',
      'Liberation Road',
      'Ring Road East',
      'Spintex Road',
      'Cantonments Road',
      'Labone Crescent',
      'Kojo Thompson Road',
    ],
    quarters: ['Osu', 'East Legon', 'Airport Residential Area', 'Dzorwulu', 'Tesano', 'Adabraka', 'Labone'],
    cities: [
      ['Accra', null],
      ['Kumasi', null],
      ['Tema', null],
      ['Takoradi', null],
    ],
  },
  {
    name: 'South Africa',
    lang: 'en',
    currency: 'ZAR',
    issuers: [
      { name: 'City of Cape Town', kind: 'water', address: 'Civic Centre, 12 Hertzog Boulevard, Cape Town' },
      { name: 'City Power Johannesburg', kind: 'electricity', address: '40 Heronmere Road, Reuven' },
      { name: 'Telkom SA', kind: 'telco', address: '61 Oak Avenue, Centurion' },
      { name: 'Standard Bank', kind: 'bank', address: '5 Simmonds Street, Johannesburg' },
    ],
    streets: ['Long Street', 'Jan Smuts Avenue', 'Main Road', 'Louis Botha Avenue', 'Beach Road', 'Church Street', 'Rivonia Road'],
    quarters: ['Rosebank', 'Sea Point', 'Observatory', 'Sandton', 'Melville', 'Hatfield', 'Claremont'],
    cities: [
      ['Cape Town', '8001'],
      ['Johannesburg', '2196'],
      ['Pretoria', '0083'],
      ['Durban', '4001'],
    ],
  },
  {
    name: 'Sénégal',
    lang: 'fr',
    currency: 'FCFA',
    issuers: [
      { name: 'Senelec', kind: 'electricity', address: '28 rue Vincens, BP 93, Dakar' },
      { name: 'Sénégalaise des Eaux', kind: 'water', address: 'Route du Front de Terre, BP 224, Dakar' },
      { name: 'Sonatel Orange', kind: 'telco', address: '64 voie de dégagement Nord, BP 69, Dakar' },
      { name: 'Société Générale Sénégal', kind: 'bank', address: '19 avenue Léopold Sédar Senghor, Dakar' },
    ],
    streets: [
      'Rue Félix Faure',
      'Avenue Cheikh Anta Diop',
      'Rue Carnot',
      'Boulevard de la République',
      'Avenue Bourguiba',
      'Rue Moussé Diop',
    ],
    quarters: ['Médina', 'Point E', 'Mermoz', 'Sacré-Cœur', 'Ouakam', 'Plateau', 'Liberté 6'],
    cities: [
      ['Dakar', null],
      ['Thiès', null],
      ['Saint-Louis', null],
      ['Ziguinchor', null],
    ],
  },
  {
    name: "Côte d'Ivoire",
    lang: 'fr',
    currency: 'FCFA',
    issuers: [
      { name: "Compagnie Ivoirienne d'Électricité", kind: 'electricity', address: '1 avenue Christiani, Treichville, Abidjan' },
      { name: 'SODECI', kind: 'water', address: '1 avenue Christiani, 01 BP 1843 Abidjan 01' },
      { name: "Orange Côte d'Ivoire", kind: 'telco', address: 'Immeuble Orange, Plateau, Abidjan' },
      { name: 'Société Ivoirienne de Banque', kind: 'bank', address: '34 boulevard de la République, Abidjan' },
    ],
    streets: ['Boulevard Latrille', 'Rue des Jardins', 'Boulevard de Marseille', 'Rue Lepic', 'Avenue Chardy', 'Boulevard VGE'],
    quarters: ['Cocody', 'Riviera 2', 'Deux Plateaux', 'Marcory Zone 4', 'Yopougon', 'Treichville', 'Angré'],
    cities: [
      ['Abidjan', null],
      ['Bouaké', null],
      ['Yamoussoukro', null],
      ['San-Pédro', null],
    ],
  },
  {
    name: 'Cameroun',
    lang: 'fr',
    currency: 'FCFA',
    issuers: [
      { name: 'ENEO Cameroun', kind: 'electricity', address: 'Avenue de Gaulle, BP 4077, Douala' },
      { name: 'Camwater', kind: 'water', address: 'Rue Joseph Essono Balla, BP 524, Yaoundé' },
      { name: 'MTN Cameroon', kind: 'telco', address: 'Immeuble Hôtel de Ville, BP 15574, Douala' },
      { name: 'Afriland First Bank', kind: 'bank', address: 'Place de l’Indépendance, BP 11834, Yaoundé' },
    ],
    streets: ['Rue Joss', 'Boulevard de la Liberté', 'Rue Njo-Njo', 'Avenue Kennedy', 'Rue Manga Bell', 'Boulevard du 20 Mai'],
    quarters: ['Bonapriso', 'Akwa', 'Bastos', 'Bonanjo', 'Mvog-Mbi', 'Essos', 'Deido'],
    cities: [
      ['Douala', null],
      ['Yaoundé', null],
      ['Bafoussam', null],
      ['Garoua', null],
    ],
  },
  {
    name: 'Maroc',
    lang: 'fr',
    currency: 'MAD',
    issuers: [
      { name: 'Lydec', kind: 'electricity', address: '48 rue Mohamed Diouri, Casablanca' },
      { name: 'Redal', kind: 'water', address: '6 rue Al Hoceima, Rabat' },
      { name: 'Maroc Telecom', kind: 'telco', address: 'Avenue Annakhil, Hay Riad, Rabat' },
      { name: 'Attijariwafa bank', kind: 'bank', address: '2 boulevard Moulay Youssef, Casablanca' },
    ],
    streets: ['Boulevard Zerktouni', 'Rue Ibn Batouta', 'Avenue Hassan II', 'Boulevard Anfa', 'Rue Tarik Ibn Ziad', 'Avenue Mohammed V'],
    quarters: ['Maârif', 'Gauthier', 'Agdal', 'Hay Riad', 'Racine', 'Guéliz', 'Souissi'],
    cities: [
      ['Casablanca', '20000'],
      ['Rabat', '10000'],
      ['Marrakech', '40000'],
      ['Tanger', '90000'],
    ],
  },
];

const GIVEN = {
  en: ['Amina', 'Chinedu', 'Kwame', 'Thandiwe', 'Wanjiru', 'Oluwaseun', 'Akosua', 'Sipho', 'Grace', 'Emeka', 'Njeri', 'Kofi'],
  fr: ['Awa', 'Mamadou', 'Fatou', 'Kouassi', 'Aïcha', 'Ibrahima', 'Mariam', 'Jean-Pierre', 'Yao', 'Khadija', 'Émile', 'Ngozi'],
};
const FAMILY = {
  en: ['Okafor', 'Wanjiku', 'Mensah', 'Nkosi', 'Adeyemi', 'Otieno', 'Boateng', 'Dlamini', 'Ochieng', 'Balogun', 'Asante', 'Mokoena'],
  fr: ['Diop', 'Ndiaye', 'Koné', 'Traoré', 'Mbarga', 'Essomba', 'Benali', 'Fall', 'Kouamé', 'Tchoumi', 'El Idrissi', 'Sow'],
};

const TITLES: Record<Lang, Record<Issuer['kind'], string[]>> = {
  en: {
    electricity: ['Electricity bill', 'Tax invoice: electricity', 'Monthly electricity statement'],
    water: ['Water bill', 'Water and sewerage bill', 'Municipal account'],
    telco: ['Postpaid bill', 'Monthly statement', 'Tax invoice'],
    bank: ['Account statement', 'Statement of account', 'Current account statement'],
  },
  fr: {
    electricity: ["Facture d'électricité", 'Facture de consommation', 'Avis de facturation'],
    water: ["Facture d'eau", 'Facture eau et assainissement', 'Avis de facturation'],
    telco: ['Facture téléphone', 'Facture mensuelle', 'Relevé de facture'],
    bank: ['Relevé de compte', 'Extrait de compte', 'Relevé de compte courant'],
  },
};

const LABELS = {
  en: {
    name: ['Account name', 'Customer name', 'Account holder', 'Name'],
    address: ['Service address', 'Supply address', 'Billing address', 'Address', 'Postal address'],
    date: ['Bill date', 'Statement date', 'Invoice date', 'Date of issue', 'Issue date', 'Billing date'],
    account: ['Account number', 'Account no.', 'Customer number', 'Meter number'],
    due: ['Due date', 'Pay by', 'Payment due'],
    period: ['Billing period', 'Statement period', 'Period'],
    amount: ['Amount due', 'Total due', 'Closing balance'],
  },
  fr: {
    name: ['Nom du client', "Nom de l'abonné", 'Titulaire', 'Client'],
    address: ['Adresse', 'Adresse de facturation', 'Adresse du branchement', 'Adresse postale', 'Domicile'],
    date: ["Date d'émission", 'Date de facturation', 'Date de facture', "Date d'édition", 'Émise le', 'Date'],
    account: ['Numéro de compte', 'N° de contrat', 'Référence client', 'N° compteur'],
    due: ['Date limite de paiement', "Date d'échéance", 'À payer avant le'],
    period: ['Période de consommation', 'Période', 'Période facturée'],
    amount: ['Montant à payer', 'Total à payer', 'Solde'],
  },
};

const MONTHS = {
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
  fr: ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'],
};

const pad2 = (n: number) => String(n).padStart(2, '0');

/** The printed forms of a date, per language (each as likely). */
export function dateForms(iso: string, lang: Lang): string[] {
  const [y, m, d] = iso.split('-').map(Number);
  const month = MONTHS[lang][m - 1];
  const numeric = [`${pad2(d)}/${pad2(m)}/${y}`, iso, `${pad2(d)}.${pad2(m)}.${y}`, `${pad2(d)}-${pad2(m)}-${y}`];
  if (lang === 'en') return [...numeric, `${d} ${month} ${y}`, `${month} ${d}, ${y}`, `${pad2(d)} ${month.slice(0, 3)} ${y}`];
  return [...numeric, `${d === 1 ? '1er' : d} ${month} ${y}`, `${pad2(d)} ${month} ${y}`];
}

const DAY = 86_400_000;
const shift = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** An age: seven bills in ten recent (0–85 days), two older than the three months (95–400 days), one dated 3–60 days ahead. */
function age(rng: Random): { kind: AgeKind; days: number } {
  const draw = rng.next();
  if (draw < 0.7) return { kind: 'recent', days: rng.int(0, 85) };
  if (draw < 0.9) return { kind: 'old', days: rng.int(95, 400) };
  return { kind: 'future', days: -rng.int(3, 60) };
}

/** The holder's address: a numbered street, a plot or house in a quarter, or a post-office box; then the city (with its postal code where it has one). */
function holderAddress(rng: Random, country: Country): string[] {
  const [city, postal] = rng.pick(country.cities);
  const cityLine = postal ? (country.lang === 'fr' ? `${postal} ${city}` : `${city} ${postal}`) : city;
  const street = rng.pick(country.streets);
  const quarter = rng.pick(country.quarters);
  const number = rng.int(1, 240);
  const fr = country.lang === 'fr';
  switch (rng.int(0, 4)) {
    case 0:
      return [`${number} ${street}`, `${quarter}, ${cityLine}`];
    case 1:
      return [`${fr ? 'Villa' : 'House'} ${number}, ${street}`, cityLine];
    case 2:
      return [fr ? `Lot ${rng.int(10, 999)}, ${quarter}` : `Plot ${rng.int(10, 999)}, ${quarter}`, cityLine];
    case 3:
      return [fr ? `BP ${rng.int(100, 9999)}` : `P.O. Box ${rng.int(100, 99999)}`, cityLine];
    default:
      return [`${fr ? 'Appt' : 'Apt'} ${rng.int(1, 40)}, ${number} ${street}`, quarter, cityLine];
  }
}

/** One bill drawn from `rng`, in `lang`. */
export function randomBill(rng: Random, lang: Lang, layout: Layout): Bill {
  const country = rng.pick(COUNTRIES.filter((c) => c.lang === lang));
  const issuer = rng.pick(country.issuers);
  const labels = LABELS[lang];
  const { kind, days } = age(rng);
  const issueDate = shift(TODAY, -days);
  const periodEnd = shift(issueDate, -rng.int(1, 6));
  const periodStart = shift(periodEnd, -29);
  const numeric = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
  const due = shift(issueDate, rng.int(10, 21));
  const amount = `${rng.int(1, 95)}${lang === 'fr' ? ' ' : ','}${String(rng.int(0, 999)).padStart(3, '0')}${lang === 'fr' ? ',00' : '.00'} ${country.currency}`;
  const others: Array<[string, string]> = [
    [rng.pick(labels.account), `${rng.int(10, 99)}-${rng.int(100000, 999999)}-${rng.int(10, 99)}`],
    [rng.pick(labels.period), `${numeric(periodStart)} - ${numeric(periodEnd)}`],
    [rng.pick(labels.due), numeric(due)],
    [rng.pick(labels.amount), amount],
  ];
  return {
    lang,
    country: country.name,
    layout,
    issuer: issuer.name,
    issuerAddress: issuer.address,
    title: rng.pick(TITLES[lang][issuer.kind]),
    holder: `${rng.pick(GIVEN[lang])} ${rng.pick(FAMILY[lang])}`.toUpperCase(),
    address: holderAddress(rng, country),
    issueDate,
    printedDate: rng.pick(dateForms(issueDate, lang)),
    dateLabel: rng.pick(labels.date),
    others,
    nameLabel: rng.pick(labels.name),
    addressLabel: rng.pick(labels.address),
    age: kind,
    ageDays: days,
  };
}

/** One bill of a corpus, with how it is rendered. */
export interface PlannedBill<C> {
  index: number;
  bill: Bill;
  condition: C;
  /** Seeds this bill's rendering. */
  seed: string;
}

/**
 * `count` bills of the corpus `seed`: languages in turn, conditions in turn per language, layouts
 * in turn per condition, so any prefix is balanced. Bill `index` is the same whatever the count.
 */
export function planBills<C>(seed: string, count: number, conditions: readonly C[]): PlannedBill<C>[] {
  return Array.from({ length: count }, (_, index) => {
    const lang = LANGS[index % LANGS.length];
    const slot = Math.floor(index / LANGS.length);
    const layout = LAYOUTS[(slot + Math.floor(slot / conditions.length)) % LAYOUTS.length];
    return {
      index,
      bill: randomBill(seeded(`${seed}/bill/${index}`), lang, layout),
      condition: conditions[slot % conditions.length],
      seed: `${seed}/render/${index}`,
    };
  });
}
