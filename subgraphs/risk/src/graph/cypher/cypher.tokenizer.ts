import type { Position } from './cypher.ast.js';
import { CypherError } from './cypher.error.js';

/**
 * The lexer of the read-only openCypher subset: source text → tokens, each with its position
 * (line, column). Comments and white space are dropped; `!=` is read as `<>`. Keywords stay words:
 * the parser (cypher.parser.ts) decides what they mean.
 */

export type TokenType = 'word' | 'ident' | 'number' | 'string' | 'param' | 'punct' | 'eof';

export interface Token {
  type: TokenType;
  /** word/ident: the name; string: the unescaped text; param: the name; punct: the symbol */
  value: string;
  num?: number;
  integer?: boolean;
  pos: Position;
  /** offset just after the token */
  end: number;
}

const PUNCT2 = ['<=', '>=', '<>', '!=', '..', '=~'];
const PUNCT1 = '()[]{},.:;|*+-/%=<>^';

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const pos = (offset: number): Position => ({ offset, line, column: offset - lineStart + 1 });
  const fail = (msg: string, offset: number): never => {
    throw new CypherError(msg, pos(offset));
  };
  while (i < source.length) {
    const c = source[i];
    if (c === '\n') {
      i++;
      line++;
      lineStart = i;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    // comments
    if (c === '/' && source[i + 1] === '/') {
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      const start = i;
      i += 2;
      while (i < source.length && !(source[i] === '*' && source[i + 1] === '/')) {
        if (source[i] === '\n') {
          line++;
          lineStart = i + 1;
        }
        i++;
      }
      if (i >= source.length) fail('Unterminated comment', start);
      i += 2;
      continue;
    }
    const start = i;
    const p = pos(start);
    if (/[A-Za-z_]/.test(c)) {
      while (i < source.length && /[A-Za-z0-9_]/.test(source[i])) i++;
      tokens.push({ type: 'word', value: source.slice(start, i), pos: p, end: i });
      continue;
    }
    if (c === '`') {
      i++;
      let name = '';
      for (;;) {
        if (i >= source.length) fail('Unterminated quoted name', start);
        if (source[i] === '`') {
          if (source[i + 1] === '`') {
            name += '`';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (source[i] === '\n') fail('Unterminated quoted name', start);
        name += source[i++];
      }
      if (!name) fail('Empty quoted name', start);
      tokens.push({ type: 'ident', value: name, pos: p, end: i });
      continue;
    }
    if (/[0-9]/.test(c)) {
      while (i < source.length && /[0-9]/.test(source[i])) i++;
      let integer = true;
      // a fraction needs a digit after the dot (so that `1..3` is 1, .., 3)
      if (source[i] === '.' && /[0-9]/.test(source[i + 1] ?? '')) {
        integer = false;
        i++;
        while (i < source.length && /[0-9]/.test(source[i])) i++;
      }
      if (/[eE]/.test(source[i] ?? '') && /[0-9+-]/.test(source[i + 1] ?? '')) {
        integer = false;
        i++;
        if (source[i] === '+' || source[i] === '-') i++;
        if (!/[0-9]/.test(source[i] ?? '')) fail('Malformed number', start);
        while (i < source.length && /[0-9]/.test(source[i])) i++;
      }
      if (/[A-Za-z_]/.test(source[i] ?? '')) fail('Malformed number', start);
      const text = source.slice(start, i);
      const num = Number(text);
      if (integer && !Number.isSafeInteger(num)) fail('Integer out of range', start);
      tokens.push({ type: 'number', value: text, num, integer, pos: p, end: i });
      continue;
    }
    if (c === "'" || c === '"') {
      i++;
      let text = '';
      for (;;) {
        if (i >= source.length) fail('Unterminated string', start);
        const ch = source[i];
        if (ch === c) {
          i++;
          break;
        }
        if (ch === '\n') fail('Unterminated string', start);
        if (ch === '\\') {
          const next = source[i + 1];
          const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '\\': '\\', "'": "'", '"': '"' };
          if (next === 'u') {
            const hex = source.slice(i + 2, i + 6);
            if (!/^[0-9A-Fa-f]{4}$/.test(hex)) fail('Malformed \\u escape', i);
            text += String.fromCharCode(parseInt(hex, 16));
            i += 6;
            continue;
          }
          if (next === undefined || !(next in escapes)) fail('Unknown escape sequence', i);
          text += escapes[next];
          i += 2;
          continue;
        }
        text += ch;
        i++;
      }
      tokens.push({ type: 'string', value: text, pos: p, end: i });
      continue;
    }
    if (c === '$') {
      i++;
      const nameStart = i;
      while (i < source.length && /[A-Za-z0-9_]/.test(source[i])) i++;
      if (i === nameStart) fail('Expected a parameter name after $', start);
      tokens.push({ type: 'param', value: source.slice(nameStart, i), pos: p, end: i });
      continue;
    }
    const two = source.slice(i, i + 2);
    if (PUNCT2.includes(two)) {
      tokens.push({ type: 'punct', value: two === '!=' ? '<>' : two, pos: p, end: i + 2 });
      i += 2;
      continue;
    }
    if (PUNCT1.includes(c)) {
      tokens.push({ type: 'punct', value: c, pos: p, end: i + 1 });
      i++;
      continue;
    }
    fail(`Unexpected character '${c}'`, start);
  }
  tokens.push({ type: 'eof', value: '', pos: pos(i), end: i });
  return tokens;
}
