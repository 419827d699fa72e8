import { CypherError } from './cypher.error.js';
import { tokenize } from './cypher.tokenizer.js';

const kinds = (source: string) => tokenize(source).map((t) => [t.type, t.value]);

/** What tokenize throws on `source`, or undefined. */
function thrown(source: string): unknown {
  try {
    tokenize(source);
  } catch (err) {
    return err;
  }
}

describe('Cypher tokenizer', () => {
  it('splits words, quoted names, numbers, strings, parameters and punctuation, and ends with eof', () => {
    expect(kinds("MATCH (a:`my var` {id: $id}) WHERE a.n >= 1.5 AND a.s <> 'x' RETURN a")).toEqual([
      ['word', 'MATCH'],
      ['punct', '('],
      ['word', 'a'],
      ['punct', ':'],
      ['ident', 'my var'],
      ['punct', '{'],
      ['word', 'id'],
      ['punct', ':'],
      ['param', 'id'],
      ['punct', '}'],
      ['punct', ')'],
      ['word', 'WHERE'],
      ['word', 'a'],
      ['punct', '.'],
      ['word', 'n'],
      ['punct', '>='],
      ['number', '1.5'],
      ['word', 'AND'],
      ['word', 'a'],
      ['punct', '.'],
      ['word', 's'],
      ['punct', '<>'],
      ['string', 'x'],
      ['word', 'RETURN'],
      ['word', 'a'],
      ['eof', ''],
    ]);
  });

  it('reads `1..3` as 1, .., 3 (a fraction needs a digit after the dot)', () => {
    expect(tokenize('*1..3').map((t) => t.value)).toEqual(['*', '1', '..', '3', '']);
  });

  it('reads integers, fractions and exponents', () => {
    const numbers = tokenize('7 2.25 1e3 4E-2').filter((t) => t.type === 'number');
    expect(numbers.map((t) => [t.num, t.integer])).toEqual([
      [7, true],
      [2.25, false],
      [1000, false],
      [0.04, false],
    ]);
  });

  it('reads != as <>', () => {
    expect(kinds('a != b')).toEqual([
      ['word', 'a'],
      ['punct', '<>'],
      ['word', 'b'],
      ['eof', ''],
    ]);
  });

  it('decodes string escapes and doubled backticks in quoted names', () => {
    expect(tokenize(`'it\\'s \\u00e9\\n' "say \\"hi\\"" \`a\`\`b\``).map((t) => t.value)).toEqual(["it's é\n", 'say "hi"', 'a`b', '']);
  });

  it('drops comments and white space, and counts lines and columns', () => {
    const tokens = tokenize('MATCH // to the end of the line\n  (a) /* a block\n over lines */ RETURN a');
    expect(tokens.map((t) => [t.value, t.pos.line, t.pos.column])).toEqual([
      ['MATCH', 1, 1],
      ['(', 2, 3],
      ['a', 2, 4],
      [')', 2, 5],
      ['RETURN', 3, 16],
      ['a', 3, 23],
      ['', 3, 24],
    ]);
    expect(tokens[1]).toMatchObject({ pos: { offset: 34 }, end: 35 });
  });

  it.each([
    ["RETURN 'open", 'Unterminated string', 1, 8],
    ["RETURN 'a\nb'", 'Unterminated string', 1, 8],
    ['RETURN `name', 'Unterminated quoted name', 1, 8],
    ['RETURN ``', 'Empty quoted name', 1, 8],
    ['RETURN 1 /* open', 'Unterminated comment', 1, 10],
    ['RETURN 12abc', 'Malformed number', 1, 8],
    ['RETURN 1e+', 'Malformed number', 1, 8],
    ['RETURN 99999999999999999', 'Integer out of range', 1, 8],
    ["RETURN 'a\\qb'", 'Unknown escape sequence', 1, 10],
    ["RETURN '\\u12'", 'Malformed \\u escape', 1, 9],
    ['RETURN $', 'Expected a parameter name after $', 1, 8],
    ['RETURN a ? 1', "Unexpected character '?'", 1, 10],
  ])('refuses %j: %s at line %i, column %i', (source, message, line, column) => {
    const e = thrown(source);
    expect(e).toBeInstanceOf(CypherError);
    expect(e).toMatchObject({ kind: 'syntax', reason: message, position: { line, column } });
  });
});
