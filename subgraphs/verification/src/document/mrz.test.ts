import sharp from 'sharp';
import { AMINA, corrupt, DEJAVU_MONO_BOLD, idCardBack, passportPage, td1, td3 } from '../../../../test/support/documents.js';
import { checkDigit as icaoCheckDigit, truthOf } from '../../../../bench/support/mrz-corpus.js';
import { loadFonts } from '../../../../bench/support/mrz-fonts.js';
import { renderDocument } from '../../../../bench/support/mrz-render.js';
import { portrait } from '../../../../test/support/faces.js';
import { TextReader } from '../vision/text-reader.js';
import {
  correctByShape,
  doubtfulFields,
  fillNameTail,
  glyphReading,
  mendByChoices,
  mendCodes,
  mrzLines,
  parseMrz,
  readMrz,
} from './mrz.js';

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

  it.each([-7, 5])(
    'levels a page turned by %s° before reading its zone',
    async (degrees) => {
      const lines = td1(AMINA);
      const turned = await sharp(await idCardBack(lines))
        .rotate(degrees, { background: '#f1efe6' })
        .jpeg({ quality: 85 })
        .toBuffer();
      expect(await read(turned)).toMatchObject({ format: 'TD1', lines, valid: true, documentNumber: 'A12345678' });
    },
    60_000,
  );

  it.each(['FO90658'])(
    'tells O from 0 in a document number (%s, a common monospace font) by reading its look-alikes again',
    async (documentNumber) => {
      const holder = { ...AMINA, documentNumber };
      const reading = await read(await passportPage(holder, await portrait('woman'), td3(holder), DEJAVU_MONO_BOLD));
      expect(reading).toMatchObject({ valid: true, documentNumber });
    },
    60_000,
  );

  // a bold zone against templates of regular weight: 0 and O, 8 and B scored alike; 680109099 came
  // back valid as 6801O9O99 (the two swaps cancel out in the check digit), B80QJ3D05 with a failed check
  it.each(['680109099', 'B80QJ3D05'])(
    'reads a bold zone (%s) against templates thickened to its stroke weight',
    async (documentNumber) => {
      const holder = { ...AMINA, documentNumber, surname: 'OKAFOR', givenNames: 'CHIAMAKA' };
      const lines = td3(holder);
      const reading = await read(await passportPage(holder, await portrait('woman'), lines, DEJAVU_MONO_BOLD));
      expect(reading).toMatchObject({ lines, valid: true, documentNumber });
    },
    60_000,
  );

  // look-alikes side by side in OCR-B, on a page saved as a poor JPEG: OCR's line model alone
  // read most of these with one glyph swapped (a 0 for an O, a 1 for an I) and the zone failed
  it.each([
    ['a passport', 'O0I1Z2S5B', 'passport'],
    ['an ID card', 'B8O0D0QI1', 'card'],
    ['an ID card', 'G6OQ0S5IZ', 'card'],
  ] as const)(
    'reads %s whose number is %s glyph by glyph, look-alikes apart',
    async (_, documentNumber, kind) => {
      const holder = { ...AMINA, documentNumber, surname: 'OKONKWO', givenNames: 'IBRAHIM OLUWASEUN' };
      const lines = kind === 'passport' ? td3(holder) : td1(holder);
      const page = kind === 'passport' ? await passportPage(holder, await portrait('man'), lines) : await idCardBack(lines);
      const poor = await sharp(page).jpeg({ quality: 45 }).toBuffer();
      expect(await read(poor)).toMatchObject({ lines, valid: true, documentNumber });
    },
    60_000,
  );

  /** The glyph reader's choices: every cell sure of what the lines say, but for `seconds`: [line, index, runner-up, its score] beside the read glyph's 0.9. */
  const choices = (read: string[], seconds: Array<[number, number, string, number]>) =>
    read.map((line, l) =>
      [...line].map((char, i) => {
        const second = seconds.find(([sl, si]) => sl === l && si === i);
        return second
          ? [
              { char, score: 0.9 },
              { char: second[2], score: second[3] },
            ]
          : [{ char, score: 0.95 }];
      }),
    );

  describe("a failed check digit mended from the glyph reader's doubts", () => {
    const lines = td1({ ...AMINA, documentNumber: 'AO1234567' });
    const misread = [lines[0].replace('AO1', 'A01'), lines[1], lines[2]];

    it('takes a look-alike the glyph reader scored close', () => {
      expect(mendByChoices(misread, choices(misread, [[0, 6, 'O', 0.85]]), TODAY)).toEqual(lines);
    });

    it('reports the mended field as in doubt: a forged digit a look-alike happens to satisfy reads the same', () => {
      const reading = glyphReading({ cells: choices(misread, [[0, 6, 'O', 0.85]]), match: 0.93 }, null, TODAY);
      expect(reading).toMatchObject({ lines, valid: true, documentNumber: 'AO1234567', doubtful: ['documentNumber'] });
    });

    it('names a glyph mended in the optional data, which only the composite covers, optionalData', () => {
      const sound = ['I<KENWANJIKU<<AMINA<GRACE'.padEnd(36, '<'), 'A123456784KEN8402297F3001019XKOPQ<<6'];
      const read = [sound[0], sound[1].replace('XKOPQ', 'XK0PQ')];
      const reading = glyphReading({ cells: choices(read, [[1, 30, 'O', 0.85]]), match: 0.93 }, null, TODAY);
      expect(reading).toMatchObject({ lines: sound, valid: true, doubtful: ['optionalData'] });
      // a TD1 card whose long number runs on into the first optional field: the second is the composite's alone
      const line1 = 'I<UTOD23145890<7349<<<<<<<<<<<';
      const line2 = '3407127M9507122UTOXKOPQ<<<<<<';
      const long = [line1, line2 + icaoCheckDigit(line1.slice(5) + line2.slice(0, 7) + line2.slice(8, 15) + line2.slice(18, 29))];
      const misread = [long[0], long[1].replace('XKOPQ', 'XK0PQ'), 'STEVENSON<<PETER<JOHN<<<<<<<<<'];
      const card = glyphReading({ cells: choices(misread, [[1, 20, 'O', 0.85]]), match: 0.93 }, null, TODAY);
      expect(card).toMatchObject({ valid: true, documentNumber: 'D23145890734', doubtful: ['optionalData'] });
    });

    it('keeps the failure when the image shows the glyph clearly (no close second)', () => {
      expect(mendByChoices(misread, choices(misread, [[0, 6, 'O', 0.6]]), TODAY)).toEqual(misread);
    });

    it('never swaps two glyphs (two swaps can cancel out in a check digit)', () => {
      // printed AOO… under the check digit of A00…: both swaps together make it hold, one alone does not
      const forged = td1({ ...AMINA, documentNumber: 'A00234567' });
      const changed = [forged[0].replace('A00', 'AOO'), forged[1], forged[2]];
      const doubts: Array<[number, number, string, number]> = [
        [0, 6, '0', 0.88],
        [0, 7, '0', 0.88],
      ];
      const printed = [changed[0].slice(0, 14) + forged[0][14] + changed[0].slice(15), forged[1], forged[2]];
      expect(parseMrz(printed, TODAY)?.failedChecks).toContain('documentNumber');
      expect(parseMrz(mendByChoices(printed, choices(printed, doubts), TODAY), TODAY)?.failedChecks).toContain('documentNumber');
    });
  });

  describe("a state code read as no ICAO code, mended from the glyph reader's runner-ups", () => {
    const nld = td3({ ...AMINA, issuingState: 'NLD', nationality: 'NLD' });
    const misread = [nld[0].replace('P<NLD', 'P<NID'), nld[1]];

    it('takes the one runner-up that makes a known code, and keeps the code in doubt', () => {
      expect(parseMrz(misread, TODAY)).toMatchObject({ valid: false, unknownStates: ['issuingState'] });
      const reading = glyphReading({ cells: choices(misread, [[0, 3, 'L', 0.85]]), match: 0.93 }, null, TODAY);
      expect(reading).toMatchObject({ lines: nld, valid: true, issuingState: 'NLD', unknownStates: [], doubtful: ['issuingState'] });
    });

    it('leaves the code unknown when the runner-up is far, or when two runner-ups make two codes', () => {
      expect(mendCodes(misread, choices(misread, [[0, 3, 'L', 0.6]])).mended).toEqual([]);
      // NID → NLD by its middle glyph, or → NIC (Nicaragua) by its last: two known codes, no choice
      const two = mendCodes(
        misread,
        choices(misread, [
          [0, 3, 'L', 0.85],
          [0, 4, 'C', 0.85],
        ]),
      );
      expect(two).toEqual({ lines: misread, mended: [] });
    });
  });

  describe('a sex read as no sex code (no check digit covers it)', () => {
    const passport = td3(AMINA);
    const sexAt = 20;
    const misread = [passport[0], passport[1].slice(0, sexAt) + 'P' + passport[1].slice(sexAt + 1)];

    it('leaves the sex in doubt: the zone stays valid, the document goes to review', () => {
      expect(passport[1][sexAt]).toBe('F');
      expect(parseMrz(misread, TODAY)).toMatchObject({ valid: true, sex: null, doubtful: ['sex'] });
      expect(parseMrz(passport, TODAY)).toMatchObject({ valid: true, sex: 'F', doubtful: [] });
    });

    it("takes the glyph reader's one runner-up that is a sex code, and keeps the sex in doubt", () => {
      const reading = glyphReading({ cells: choices(misread, [[1, sexAt, 'F', 0.85]]), match: 0.93 }, null, TODAY);
      expect(reading).toMatchObject({ lines: passport, valid: true, sex: 'F', doubtful: ['sex'] });
      // a far runner-up mends nothing: still in doubt, never a silent null
      const far = glyphReading({ cells: choices(misread, [[1, sexAt, 'F', 0.6]]), match: 0.93 }, null, TODAY);
      expect(far).toMatchObject({ lines: misread, sex: null, doubtful: ['sex'] });
    });
  });

  describe('fields the image leaves in doubt, though the zone is valid', () => {
    const doubts = (lines: string[], seconds: Array<[number, number, string, number]>, ocr: string[] | null = null) =>
      doubtfulFields(parseMrz(lines, TODAY)!, choices(lines, seconds), ocr, TODAY);

    it('a number two close look-alikes would pass as well: 0→O at weights 7 and 3 adds 240', () => {
      const lines = td1({ ...AMINA, documentNumber: 'A12004567' });
      const swapped = [lines[0].replace('A1200', 'A12OO'), lines[1], lines[2]];
      expect(parseMrz(swapped, TODAY)).toMatchObject({ valid: true, documentNumber: 'A12OO4567' });
      expect(
        doubts(lines, [
          [0, 8, 'O', 0.88],
          [0, 9, 'O', 0.88],
        ]),
      ).toEqual(['documentNumber']);
      // the image sure of each 0: the check digit's word holds
      expect(
        doubts(lines, [
          [0, 8, 'O', 0.6],
          [0, 9, 'O', 0.6],
        ]),
      ).toEqual([]);
    });

    it('a number with a G the image shows nearly as a 6 (they weigh the same modulo 10)', () => {
      const lines = td1({ ...AMINA, documentNumber: 'A12G45678' });
      expect(doubts(lines, [[0, 8, '6', 0.88]])).toEqual(['documentNumber']);
      // an 8 nearly a B changes the check digit: the check decides
      expect(doubts(lines, [[0, 13, 'B', 0.88]])).toEqual([]);
    });

    it('a name glyph with a runner-up nearly as like that OCR read, or one the templates liked less than another', () => {
      const lines = td1(AMINA);
      const ocrSays = (names: string) => [lines[0], lines[1], names];
      // the R of GRACE (line 3, cell 16) nearly a P, and OCR read a P
      expect(doubts(lines, [[2, 16, 'P', 0.85]], ocrSays(lines[2].replace('GRACE', 'GPACE')))).toEqual(['givenNames']);
      expect(doubts(lines, [[2, 16, 'P', 0.85]], lines)).toEqual([]);
      expect(doubts(lines, [[2, 16, 'P', 0.6]], ocrSays(lines[2].replace('GRACE', 'GPACE')))).toEqual([]);
      // no OCR reading to compare with: a close runner-up alone
      expect(doubts(lines, [[2, 2, 'M', 0.87]], null)).toEqual(['surname']);
      // the glyph read scored below another (OCR's reading won the cell)
      expect(doubts(lines, [[2, 2, 'M', 0.93]], lines)).toEqual(['surname']);
    });

    it('a name glyph the templates matched poorly where OCR read otherwise, however far ahead of its runner-up', () => {
      // AISHA read AJSHA (Courier Prime in perspective): J 0.63, I 0.52, OCR read I
      const lines = td1({ ...AMINA, givenNames: 'AJSHA' });
      const cells = choices(lines, []);
      const j = lines[2].indexOf('AJSHA') + 1;
      cells[2][j] = [
        { char: 'J', score: 0.63 },
        { char: 'I', score: 0.52 },
      ];
      const ocr = [lines[0], lines[1], lines[2].replace('AJSHA', 'AISHA')];
      expect(doubtfulFields(parseMrz(lines, TODAY)!, cells, ocr, TODAY)).toEqual(['givenNames']);
      // matched well, OCR's other reading alone does not put it in doubt
      cells[2][j] = [
        { char: 'J', score: 0.93 },
        { char: 'I', score: 0.52 },
      ];
      expect(doubtfulFields(parseMrz(lines, TODAY)!, cells, ocr, TODAY)).toEqual([]);
    });

    it('a name cell without ink (the zone prints its fillers: a glyph lost to light or scan)', () => {
      const lines = td1({ ...AMINA, surname: 'WANJIKU' });
      const lost = choices(lines, []);
      lost[2][3] = [{ char: '<', score: 0 }];
      const read = [lines[0], lines[1], lines[2].slice(0, 3) + '<' + lines[2].slice(4)];
      expect(doubtfulFields(parseMrz(read, TODAY)!, lost, read, TODAY)).toEqual(['surname']);
    });
  });

  it('reads a zone scanned small (a card at 40 %, about 120 dpi) after enlarging it: look-alikes apart', async () => {
    const holder = { ...AMINA, documentNumber: 'G6OQ0S5IZ' };
    const lines = td1(holder);
    const page = await idCardBack(lines);
    const { width } = await sharp(page).metadata();
    const small = await sharp(page)
      .resize(Math.round(width! * 0.4))
      .jpeg({ quality: 80 })
      .toBuffer();
    // read at its own size, the zone came back valid with the number G6O0OS5IZ (the swaps cancel out)
    expect(await read(small)).toMatchObject({ lines, valid: true, documentNumber: 'G6OQ0S5IZ' });
  }, 60_000);

  it('looks for the zone in the ink when OCR found no zone line (a photo OCR made nothing of)', async () => {
    const lines = td1(AMINA);
    // no line of text from OCR at all: the three lines are found as chains of glyphs
    expect(await readMrz(await idCardBack(lines), text, { lines: [], today: TODAY })).toMatchObject({ lines, valid: true });
  }, 60_000);

  it('reads a passport zone under a line OCR takes for a third zone line (a heading read through noise)', async () => {
    const lines = td3(AMINA);
    const page = await passportPage(AMINA, await portrait('woman'), ['F<<<<<<<<<<<<<<<IMIRAINDEARMET', ...lines]);
    // read as a TD1 zone of three lines, nothing came out right: the last two are the zone
    expect(await read(page)).toMatchObject({ format: 'TD3', lines, valid: true, documentNumber: 'A12345678' });
  }, 60_000);

  // a photo in perspective (tune seed 6, DejaVu Sans Mono): OCR ended the first zone line at its
  // 39th glyph and read the fillers past a gap as a line of their own, `cea <`, a little lower
  it('joins back a piece OCR split off the end of a zone line', async () => {
    const lines = td3(AMINA);
    const page = await passportPage(AMINA, await portrait('woman'), lines);
    const found = (await text.read(page)).lines;
    const [first] = mrzLines(found);
    const box = (symbols: typeof first.symbols) => ({
      x0: symbols[0].box.x0,
      y0: Math.min(...symbols.map((c) => c.box.y0)),
      x1: symbols.at(-1)!.box.x1,
      y1: Math.max(...symbols.map((c) => c.box.y1)),
    });
    const [head, tail] = [first.symbols.slice(0, 39), first.symbols.slice(39)];
    const lower = (b: ReturnType<typeof box>) => ({ ...b, y0: b.y0 + 6, y1: b.y1 + 2 });
    const split = found.flatMap((l) =>
      l === first
        ? [
            { ...l, text: head.map((c) => c.text).join(''), symbols: head, box: box(head) },
            { ...l, text: 'cea <', symbols: tail, box: lower(box(tail)), confidence: 0 },
          ]
        : [l],
    );
    const zone = mrzLines(split);
    expect(zone).toHaveLength(2);
    expect(zone[0].text).toBe(`${head.map((c) => c.text).join('')}cea<`);
    expect(await readMrz(page, text, { lines: split, today: TODAY })).toMatchObject({ format: 'TD3', lines, valid: true });
  }, 60_000);

  it("reads an ID card zone whose first line OCR made little of (bold at 150 dpi: 'IRTC 1')", async () => {
    const lines = td1(AMINA);
    const page = await idCardBack(lines);
    const found = (await text.read(page)).lines;
    const [first] = mrzLines(found);
    // OCR's first zone line cut to its first five glyphs: no longer a zone line, the two others read as TD2
    const damaged = found.map((l) => (l === first ? { ...l, text: `${l.text.slice(0, 4)} 1`, symbols: l.symbols.slice(0, 5) } : l));
    expect(mrzLines(damaged)).toHaveLength(2);
    expect(await readMrz(page, text, { lines: damaged, today: TODAY })).toMatchObject({ format: 'TD1', lines, valid: true });
  }, 60_000);

  // a forged optional-data digit: `0` printed where the composite was computed for a 4 (O weighs 24).
  // In DejaVu Sans Mono Bold the glyphs scored 0 and O alike and OCR read O: the composite held and
  // the forged zone came back valid with nothing in doubt
  it('puts optional data in doubt when only the composite check digit supports the look-alike read in it', async () => {
    const line1 = 'I<KENWANJIKU<<AMINA<GRACE'.padEnd(36, '<');
    const head = `A123456784KEN8402297F3001019`;
    const composite = icaoCheckDigit(head.slice(0, 10) + head.slice(13, 20) + head.slice(21, 28) + 'XK4PQ<<');
    const lines = [line1, `${head}XK0PQ<<${composite}`];
    expect(parseMrz(lines, TODAY)).toMatchObject({ valid: false, failedChecks: ['composite'] });
    const { fonts } = await loadFonts(['dejavu-mono-bold']);
    const doc = { format: 'TD2' as const, lines, truth: truthOf('TD2', lines), broken: null, specimen: false };
    const reading = await read(await renderDocument(doc, fonts[0], 'clean', 'mrz-test/forged-optional'));
    // caught (the composite fails) or sent to review: never valid with nothing in doubt
    expect(reading?.valid === false || reading?.doubtful.includes('optionalData')).toBe(true);
  }, 60_000);

  // clean cards of the corpus renderer, each misread before (and sent to review): a name line of
  // fillers measured by its own glyphs (the `<` shorter than a capital) cut its letters' tops and
  // feet (DIALLO read UJALLD); Courier Prime's A reached into the next cell with a serif, which
  // made its I a J (TENDAI read TENDAJ)
  it.each([
    ['dejavu-mono', 'filler-line/3', ['IRUKR235013<<<4<<<<<<<<<<<<<<<', '4406208M2906092UKRXHFSLJ<<<<<7', 'DIALLO'.padEnd(30, '<')]],
    ['courier-prime', 'serif/3', ['I<SSD104248<<<5<<<<<<<<<<<<<<<', '0111023M2701068SSD<<<<<<<<<<<2', '<<TENDAI<JOHN<TENDAI<<<<<<<<<<']],
  ])(
    'reads a clean card in %s (%s) glyph by glyph, nothing in doubt',
    async (font, seed, lines) => {
      const { fonts } = await loadFonts([font]);
      const doc = { format: 'TD1' as const, lines, truth: truthOf('TD1', lines), broken: null, specimen: false };
      const reading = await read(await renderDocument(doc, fonts[0], 'clean', `mrz-test/${seed}`));
      expect(reading).toMatchObject({ lines, valid: true, doubtful: [] });
    },
    60_000,
  );

  // phone photos of the corpus renderer (tune corpus seeds), each misread before: OCR's symbols were
  // put in cells of a straight grid from the first to the last, which a photo's changing pitch put
  // half a cell off mid-line (a TD2 in DejaVu Sans Mono Bold read SI<PO<<ABNA, the glyph reader
  // having found no grid in its touching glyphs; a Courier Prime TD2 read GAB5 as <GA8 and failed);
  // and a bold TD1 whose ink grid was a cell off on its name line (RAKOT<<LLERAO<THANNDIWEJMOUSSA)
  it.each([
    ['dejavu-mono-bold', 80, ['C<UGATRAORE<<SIPHO<ABENA<<<<<<<<<<<<', '354E7877<7UGA5508028<2611055<<<<<<<6']],
    ['courier-prime', 395, ['ACGABOTIENO<<MARIA<NOMVULA<<<<<<<<<<', 'GD21336<<4GAB5412242M3704206<<<<<<<6']],
    ['dejavu-mono-bold', 79, ['I<TCDFD3392532<388<<<<<<<<<<<<', '4506304F3504130TCD<<<<<<<<<<<4', 'RAKOTO<<LERATO<THANDIWE<MOUSSA']],
  ])(
    'reads a zone photographed in perspective (%s, tune document %s) on a grid fitted to its glyphs',
    async (font, index, lines) => {
      const { fonts } = await loadFonts([font]);
      const format = lines.length === 3 ? ('TD1' as const) : ('TD2' as const);
      const doc = { format, lines, truth: truthOf(format, lines), broken: null, specimen: false };
      const reading = await read(await renderDocument(doc, fonts[0], 'perspective+light', `mrz-corpus/tune/1/render/${index}`));
      expect(reading).toMatchObject({ lines, valid: true, doubtful: [] });
    },
    60_000,
  );

  // phone photos in strong perspective (tune corpus, seed 6), none found before: levelled on
  // average, the zone's rows still sloped (a TD3 in DejaVu Sans Mono Bold down to the right by two
  // of its rows' pitch over the line) and OCR read each row's halves into two lines across both rows
  it.each([
    ['dejavu-mono-bold', 60, ['POTUNMOHAMED<<FRANCOISE<ANNA<CHIDI<AMINA<<<<', 'OO01C331C2SSD6904029F2012191<<<<<<<<<<<<<<<8']],
    ['courier-prime', 269, ['C<SWEEL<AMRANI<<OLUWADAMILARE<MOUSSA', '6335343<<3SWE7508239M3911039KWV4J<<4']],
    ['courier-prime', 413, ['C<TUNOUEDRAOGO<<LI<<<<<<<<<<<<<<<<<<', '9759034003TUN9508082M3406038<<<<<<<6']],
  ])(
    'reads a zone whose rows still slope after levelling (%s, tune document %s) once its band is straightened',
    async (font, index, lines) => {
      const { fonts } = await loadFonts([font]);
      const format = lines[0].length === 44 ? ('TD3' as const) : ('TD2' as const);
      const doc = { format, lines, truth: truthOf(format, lines), broken: null, specimen: false };
      const reading = await read(await renderDocument(doc, fonts[0], 'perspective+light', `mrz-corpus/tune/6/render/${index}`));
      expect(reading).toMatchObject({ lines, valid: true, doubtful: [] });
    },
    60_000,
  );

  // clean OCR-B zones whose zeros the glyph reader read O: DejaVu Sans Mono's narrow O matched
  // OCR-B's 0 better than OCR-B's own O did (0.976 against 0.951), and a personal number with two
  // zeros read O failed its check (a sound passport rejected); a TD1's optional data read O, sent to review
  it.each([
    ['TD3', 'mrz-test/ocrb-zeros/1', ['PDCIVSCHMIDT<<ABENA<MARIA<<<<<<<<<<<<<<<<<<<', '940968<<<4CIV5306084F35091132G8P8E0DK0S8<<44']],
    [
      'TD1',
      'mrz-corpus/tune/3/render/127',
      ['IRSLEHO388663230FJMNQ6JADVN<<<', '0507118M2503099SLE0PFU5LCX72F0', 'SCHMIDT<<KOFI<SIPHO<ALEXANDRA<'],
    ],
  ] as const)(
    'reads the zeros of a clean OCR-B %s (%s) against OCR-B alone',
    async (format, seed, lines) => {
      const { fonts } = await loadFonts(['ocr-b']);
      const doc = { format, lines: [...lines], truth: truthOf(format, [...lines]), broken: null, specimen: false };
      const reading = await read(await renderDocument(doc, fonts[0], 'clean', seed));
      expect(reading).toMatchObject({ lines, valid: true, doubtful: [] });
    },
    60_000,
  );

  // a forged clean OCR-B passport (tune seed; its expiry date changed): its lines' first 36 glyphs
  // fit a TD2 grid at 0.7, and that misreading failed one check digit where the TD3 failed two
  it('keeps a forged zone in the layout its glyphs fit best, its broken field named', async () => {
    const lines = ['POMUSMOYO<<ADAEZE<ABENA<JEAN<<<<<<<<<<<<<<<<', 'KP19587805MUS4202259F28042347PFRG<<<<<<<<<66'];
    const { fonts } = await loadFonts(['ocr-b']);
    const doc = { format: 'TD3' as const, lines, truth: truthOf('TD3', lines), broken: null, specimen: false };
    const reading = await read(await renderDocument(doc, fonts[0], 'clean', 'mrz-corpus/tune/3/render/36'));
    expect(reading).toMatchObject({ format: 'TD3', lines, valid: false, failedChecks: expect.arrayContaining(['expirationDate']) });
  }, 60_000);

  // clean DejaVu Sans Mono zones of the corpus renderer (tune seed 4): its zero has a dot in its
  // middle, its O a hole, which the glyphs' grid hardly tells apart. A bold card's O matched OCR-B's
  // plain 0 better than DejaVu's own O (OCR-B fits that line 0.09 worse): `P08OO4` read `P08004`,
  // valid (the two swaps cancel out); two forged numbers' failed check digits were "mended" by
  // reading a 0 as O (0.951 against 0.844; bold 0.948 against 0.889) and came back valid
  it.each([
    [
      'dejavu-mono-bold',
      'TD1',
      61,
      'sound',
      ['ACGINP08OO4<<<7W7TIHFD<<<<<<<<', '8403010M3506019GIN<<<<<<<<<<<7', 'FALL<<IBRAHIMA<OLUWASEUN<ZAWAD'],
    ],
    ['dejavu-mono', 'TD3', 21, 'forged', ['P<SLEASANTE<<SALMA<KOFI<KOFI<WANJIRU<<<<<<<<', '61416079<4SLE4203016F3105032<<<<<<<<<<<<<<06']],
    ['dejavu-mono-bold', 'TD2', 26, 'forged', ['ACSENABUBAKAR<<KAREN<FRANCOISE<<<<<<', 'RD07277<<3SEN5804292M3911176CM50FDZ0']],
  ] as const)(
    "tells a %s %s's dotted zero from its O (tune document %s, %s)",
    async (font, format, index, kind, lines) => {
      const { fonts } = await loadFonts([font]);
      const doc = { format, lines: [...lines], truth: truthOf(format, [...lines]), broken: null, specimen: false };
      const reading = await read(await renderDocument(doc, fonts[0], 'clean', `mrz-corpus/tune/4/render/${index}`));
      if (kind === 'sound') expect(reading).toMatchObject({ lines, valid: true, doubtful: [] });
      else expect(reading).toMatchObject({ lines, valid: false, failedChecks: expect.arrayContaining(['documentNumber']) });
    },
    60_000,
  );

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

  // ICAO 9303's own specimens: the state UTO is in no country list, the zone is valid all the same
  const SPECIMEN = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];

  it('parses every ICAO 9303 form field by field (the specimen state UTO, a long TD1 number, D<< for Germany)', () => {
    expect(parseMrz(SPECIMEN, TODAY)).toMatchObject({
      format: 'TD3',
      valid: true,
      failedChecks: [],
      issuingState: 'UTO',
      nationality: 'UTO',
      documentNumber: 'L898902C3',
      dateOfBirth: '1974-08-12',
      expiryDate: '2012-04-15',
      sex: 'F',
      surname: 'ERIKSSON',
      givenNames: 'ANNA MARIA',
    });
    // a number longer than 9: `<` in the check digit's place, the rest and its check digit in the optional field
    expect(
      parseMrz(['I<UTOD23145890<7349<<<<<<<<<<<', '3407127M9507122UTO<<<<<<<<<<<2', 'STEVENSON<<PETER<JOHN<<<<<<<<<'], TODAY),
    ).toMatchObject({ format: 'TD1', valid: true, documentNumber: 'D23145890734', dateOfBirth: '1934-07-12', surname: 'STEVENSON' });
    // Germany's code is D<<; an empty personal number's check digit is <
    expect(parseMrz(['P<D<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<', 'C01X00T478D<<6408125F2702283<<<<<<<<<<<<<<<4'], TODAY)).toMatchObject(
      {
        valid: true,
        issuingState: 'D',
        nationality: 'D',
        documentNumber: 'C01X00T47',
      },
    );
  });

  it('reports a field whose own check digit holds, and names each that fails', () => {
    const birthChanged = [SPECIMEN[0], SPECIMEN[1].replace('740812', '740813')];
    expect(parseMrz(birthChanged, TODAY)).toMatchObject({
      valid: false,
      failedChecks: ['birthDate', 'composite'],
      documentNumber: 'L898902C3',
      dateOfBirth: null,
      expiryDate: '2012-04-15',
    });
    // a check digit read as `<` with nothing after it is no long number
    const td1Lines = td1(AMINA);
    const fillerCheck = [td1Lines[0].slice(0, 14) + '<' + td1Lines[0].slice(15), td1Lines[1], td1Lines[2]];
    expect(parseMrz(fillerCheck, TODAY)).toMatchObject({
      valid: false,
      failedChecks: expect.arrayContaining(['documentNumber']),
      documentNumber: null,
    });
    // no check digit covers a state code: one that is none (CIV read as CTV) makes the zone not valid
    expect(parseMrz([SPECIMEN[0].replace('UTO', 'CTV'), SPECIMEN[1]], TODAY)).toMatchObject({
      valid: false,
      failedChecks: [],
      unknownStates: ['issuingState'],
    });
    const numberChanged = [SPECIMEN[0], SPECIMEN[1].replace('L898902C3', 'L898902C4')];
    expect(parseMrz(numberChanged, TODAY)).toMatchObject({ failedChecks: ['documentNumber', 'composite'], documentNumber: null });
  });

  it('takes the K and L OCR reads in a run of fillers after a name for fillers', () => {
    expect(fillNameTail('SALMA<KLLL<LLLLLLLLLLK<<<<<<<')).toBe('SALMA<<<<<<<<<<<<<<<<<<<<<<<<');
    expect(fillNameTail('HASSAN<K<LLLLLLLL<L<<<<')).toBe('HASSAN<<<<<<<<<<<<<<<<<');
    expect(fillNameTail('ERIKSSON<<ANNA<MARIA<<<<')).toBe('ERIKSSON<<ANNA<MARIA<<<<');
    expect(fillNameTail('KILLIAN<<KELLY<<<<<<<<<<')).toBe('KILLIAN<<KELLY<<<<<<<<<<');
  });

  it('finds the zone whatever order OCR gives its blocks in', () => {
    const line = (text: string, y: number) => ({
      text,
      confidence: 90,
      box: { x0: 10, y0: y, x1: 900, y1: y + 30 },
      words: [],
      symbols: [],
    });
    const zone = [line(SPECIMEN[0], 700), line(SPECIMEN[1], 750)];
    // the zone's block first, the printed text after it
    expect(mrzLines([...zone, line('PASSPORT', 40), line('SURNAME ERIKSSON', 200)])).toEqual(zone);
  });

  it('finds no zone on an image without one', async () => {
    expect(await read(await portrait('man'))).toBeNull();
  }, 60_000);
});
