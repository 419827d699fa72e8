/**
 * Country names → ISO 3166-1 alpha-2, for lists that give nationality as text (UN, UK, OFAC remarks).
 * Names as the lists write them, including the UN's formal forms and a few demonyms.
 */
const TABLE: [string, string][] = [
  ['AF', 'Afghanistan|Afghan'], ['AL', 'Albania|Albanian'], ['DZ', 'Algeria|Algerian'], ['AS', 'American Samoa'], ['AD', 'Andorra'],
  ['AO', 'Angola|Angolan'], ['AI', 'Anguilla'], ['AG', 'Antigua and Barbuda'], ['AR', 'Argentina|Argentine|Argentinian'], ['AM', 'Armenia|Armenian'],
  ['AW', 'Aruba'], ['AU', 'Australia|Australian'], ['AT', 'Austria|Austrian'], ['AZ', 'Azerbaijan|Azerbaijani'], ['BS', 'Bahamas|The Bahamas'],
  ['BH', 'Bahrain|Bahraini'], ['BD', 'Bangladesh|Bangladeshi'], ['BB', 'Barbados'], ['BY', 'Belarus|Belarusian'], ['BE', 'Belgium|Belgian'],
  ['BZ', 'Belize'], ['BJ', 'Benin|Beninese'], ['BM', 'Bermuda'], ['BT', 'Bhutan'], ['BO', 'Bolivia|Bolivia (Plurinational State of)|Bolivian'],
  ['BA', 'Bosnia and Herzegovina|Bosnia-Herzegovina|Bosnian'], ['BW', 'Botswana'], ['BR', 'Brazil|Brazilian'], ['VG', 'British Virgin Islands|Virgin Islands, British'],
  ['BN', 'Brunei|Brunei Darussalam'], ['BG', 'Bulgaria|Bulgarian'], ['BF', 'Burkina Faso|Burkinabe'], ['BI', 'Burundi|Burundian'], ['CV', 'Cabo Verde|Cape Verde'],
  ['KH', 'Cambodia|Cambodian'], ['CM', 'Cameroon|Cameroonian'], ['CA', 'Canada|Canadian'], ['KY', 'Cayman Islands'], ['CF', 'Central African Republic'],
  ['TD', 'Chad|Chadian'], ['CL', 'Chile|Chilean'], ['CN', 'China|Chinese|People\'s Republic of China'], ['CO', 'Colombia|Colombian'], ['KM', 'Comoros'],
  ['CG', 'Congo|Republic of the Congo|Congo, Republic of the|Congo-Brazzaville'], ['CD', 'Democratic Republic of the Congo|Congo, Democratic Republic of the|DRC|Congo-Kinshasa|DR Congo'],
  ['CK', 'Cook Islands'], ['CR', 'Costa Rica'], ['CI', "Cote d'Ivoire|Côte d'Ivoire|Ivory Coast|Ivorian"], ['HR', 'Croatia|Croatian'], ['CU', 'Cuba|Cuban'],
  ['CW', 'Curacao|Curaçao'], ['CY', 'Cyprus|Cypriot'], ['CZ', 'Czech Republic|Czechia|Czech'], ['DK', 'Denmark|Danish'], ['DJ', 'Djibouti|Djiboutian'],
  ['DM', 'Dominica'], ['DO', 'Dominican Republic'], ['EC', 'Ecuador|Ecuadorian'], ['EG', 'Egypt|Egyptian'], ['SV', 'El Salvador|Salvadoran'],
  ['GQ', 'Equatorial Guinea'], ['ER', 'Eritrea|Eritrean'], ['EE', 'Estonia|Estonian'], ['SZ', 'Eswatini|Swaziland'], ['ET', 'Ethiopia|Ethiopian'],
  ['FJ', 'Fiji'], ['FI', 'Finland|Finnish'], ['FR', 'France|French'], ['GA', 'Gabon|Gabonese'], ['GM', 'Gambia|The Gambia|Gambian'], ['GE', 'Georgia|Georgian'],
  ['DE', 'Germany|German'], ['GH', 'Ghana|Ghanaian'], ['GI', 'Gibraltar'], ['GR', 'Greece|Greek'], ['GD', 'Grenada'], ['GT', 'Guatemala|Guatemalan'],
  ['GG', 'Guernsey'], ['GN', 'Guinea|Guinean'], ['GW', 'Guinea-Bissau|Guinea Bissau'], ['GY', 'Guyana'], ['HT', 'Haiti|Haitian'], ['VA', 'Holy See|Vatican'],
  ['HN', 'Honduras|Honduran'], ['HK', 'Hong Kong'], ['HU', 'Hungary|Hungarian'], ['IS', 'Iceland'], ['IN', 'India|Indian'], ['ID', 'Indonesia|Indonesian'],
  ['IR', 'Iran|Iran (Islamic Republic of)|Iranian|Islamic Republic of Iran'], ['IQ', 'Iraq|Iraqi'], ['IE', 'Ireland|Irish'], ['IM', 'Isle of Man|Man, Isle of'], ['IL', 'Israel|Israeli'],
  ['IT', 'Italy|Italian'], ['JM', 'Jamaica|Jamaican'], ['JP', 'Japan|Japanese'], ['JE', 'Jersey'], ['JO', 'Jordan|Jordanian'], ['KZ', 'Kazakhstan|Kazakh'],
  ['KE', 'Kenya|Kenyan'], ['KI', 'Kiribati'], ['KP', "North Korea|Democratic People's Republic of Korea|Korea, North|Korea, Democratic People's Republic of|DPRK"],
  ['KR', 'South Korea|Republic of Korea|Korea, South|Korea, Republic of'], ['XK', 'Kosovo'], ['KW', 'Kuwait|Kuwaiti'], ['KG', 'Kyrgyzstan|Kyrgyz'],
  ['LA', "Laos|Lao People's Democratic Republic"], ['LV', 'Latvia|Latvian'], ['LB', 'Lebanon|Lebanese'], ['LS', 'Lesotho'], ['LR', 'Liberia|Liberian'],
  ['LY', 'Libya|Libyan|Libyan Arab Jamahiriya'], ['LI', 'Liechtenstein'], ['LT', 'Lithuania|Lithuanian'], ['LU', 'Luxembourg'], ['MO', 'Macau|Macao'],
  ['MG', 'Madagascar|Malagasy'], ['MW', 'Malawi|Malawian'], ['MY', 'Malaysia|Malaysian'], ['MV', 'Maldives|Maldivian'], ['ML', 'Mali|Malian'],
  ['MT', 'Malta|Maltese'], ['MH', 'Marshall Islands'], ['MR', 'Mauritania|Mauritanian'], ['MU', 'Mauritius|Mauritian'], ['MX', 'Mexico|Mexican'],
  ['FM', 'Micronesia|Micronesia (Federated States of)'], ['MD', 'Moldova|Republic of Moldova|Moldovan'], ['MC', 'Monaco'], ['MN', 'Mongolia|Mongolian'],
  ['ME', 'Montenegro'], ['MA', 'Morocco|Moroccan'], ['MZ', 'Mozambique|Mozambican'], ['MM', 'Myanmar|Burma|Burmese'], ['NA', 'Namibia|Namibian'],
  ['NR', 'Nauru'], ['NP', 'Nepal|Nepalese'], ['NL', 'Netherlands|Dutch|The Netherlands'], ['NZ', 'New Zealand'], ['NI', 'Nicaragua|Nicaraguan'],
  ['NE', 'Niger|Nigerien'], ['NG', 'Nigeria|Nigerian'], ['MK', 'North Macedonia|Macedonia|The former Yugoslav Republic of Macedonia|North Macedonia, The Republic of|Republic of North Macedonia'], ['NO', 'Norway|Norwegian'],
  ['OM', 'Oman|Omani'], ['PK', 'Pakistan|Pakistani'], ['PW', 'Palau'], ['PS', 'Palestine|State of Palestine|Palestinian|West Bank|Gaza|Palestinian Territories'],
  ['PA', 'Panama|Panamanian'], ['PG', 'Papua New Guinea'], ['PY', 'Paraguay|Paraguayan'], ['PE', 'Peru|Peruvian'], ['PH', 'Philippines|Filipino|Philippine'],
  ['PL', 'Poland|Polish'], ['PT', 'Portugal|Portuguese'], ['PR', 'Puerto Rico'], ['QA', 'Qatar|Qatari'], ['RO', 'Romania|Romanian'],
  ['RU', 'Russia|Russian Federation|Russian'], ['RW', 'Rwanda|Rwandan'], ['KN', 'Saint Kitts and Nevis|St. Kitts and Nevis|St. Kitts & Nevis|Saint Kitts & Nevis'], ['LC', 'Saint Lucia|St. Lucia'],
  ['VC', 'Saint Vincent and the Grenadines|St. Vincent and the Grenadines'], ['WS', 'Samoa'], ['SM', 'San Marino'], ['ST', 'Sao Tome and Principe|São Tomé and Príncipe'],
  ['SA', 'Saudi Arabia|Saudi|Saudi Arabian'], ['SN', 'Senegal|Senegalese'], ['RS', 'Serbia|Serbian'], ['SC', 'Seychelles'], ['SL', 'Sierra Leone|Sierra Leonean'],
  ['SG', 'Singapore|Singaporean'], ['SK', 'Slovakia|Slovak'], ['SI', 'Slovenia|Slovenian'], ['SB', 'Solomon Islands'], ['SO', 'Somalia|Somali'],
  ['ZA', 'South Africa|South African'], ['SS', 'South Sudan|South Sudanese'], ['ES', 'Spain|Spanish'], ['LK', 'Sri Lanka|Sri Lankan'], ['SD', 'Sudan|Sudanese'],
  ['SR', 'Suriname'], ['SE', 'Sweden|Swedish'], ['CH', 'Switzerland|Swiss'], ['SY', 'Syria|Syrian Arab Republic|Syrian'], ['TW', 'Taiwan'],
  ['TJ', 'Tajikistan|Tajik'], ['TZ', 'Tanzania|United Republic of Tanzania|Tanzanian'], ['TH', 'Thailand|Thai'], ['TL', 'Timor-Leste|East Timor'],
  ['TG', 'Togo|Togolese'], ['TO', 'Tonga'], ['TT', 'Trinidad and Tobago'], ['TN', 'Tunisia|Tunisian'], ['TR', 'Turkey|Türkiye|Turkiye|Turkish'],
  ['TM', 'Turkmenistan|Turkmen'], ['TC', 'Turks and Caicos Islands'], ['TV', 'Tuvalu'], ['UG', 'Uganda|Ugandan'], ['UA', 'Ukraine|Ukrainian'],
  ['AE', 'United Arab Emirates|UAE|Emirati'], ['GB', 'United Kingdom|UK|United Kingdom of Great Britain and Northern Ireland|Great Britain|British'],
  ['US', 'United States|United States of America|USA|American'], ['UY', 'Uruguay|Uruguayan'], ['UZ', 'Uzbekistan|Uzbek'], ['VU', 'Vanuatu'],
  ['VE', 'Venezuela|Venezuela (Bolivarian Republic of)|Venezuelan'], ['VN', 'Vietnam|Viet Nam|Vietnamese'], ['YE', 'Yemen|Yemeni'], ['ZM', 'Zambia|Zambian'],
  ['ZW', 'Zimbabwe|Zimbabwean'], ['EH', 'Western Sahara'], ['SX', 'Sint Maarten'], ['NC', 'New Caledonia'], ['PF', 'French Polynesia'], ['RE', 'Reunion|Réunion'],
];

const key = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z]/g, '');
const BY_NAME = new Map<string, string>();
const CODES = new Set<string>();
for (const [code, names] of TABLE) {
  CODES.add(code);
  for (const n of names.split('|')) BY_NAME.set(key(n), code);
}

/** ISO alpha-2 for a code or a country name; null when unknown. */
export function countryCode(value: string | null | undefined): string | null {
  if (!value) return null;
  const v = value.trim();
  if (/^[A-Za-z]{2}$/.test(v) && CODES.has(v.toUpperCase())) return v.toUpperCase();
  return BY_NAME.get(key(v)) ?? null;
}

/** Normalises a nationality: ISO alpha-2 when known, else the trimmed text. */
export function normalizeCountry(value: string): string {
  return countryCode(value) ?? value.trim();
}
