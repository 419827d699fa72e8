import { graphqlHasNulEscape, nulPath, urlHasNul } from './nul.js';

describe('NUL detection', () => {
  it('names where the first NUL is', () => {
    expect(nulPath({ a: 'ok', b: [1, 'fine', { c: 'x\u0000' }] })).toBe('b[2].c');
    expect(nulPath({ variables: { u: 'a\u0000b' } })).toBe('variables.u');
    expect(nulPath({ ['k\u0000']: 1 })).toBe('k\u0000');
    expect(nulPath({ a: 'no', b: [null, 3, true] })).toBeNull();
  });

  it('does not walk an uploaded file’s bytes (they hold zeros, not text)', () => {
    const file = { filename: 'scan.png', bytes: Buffer.alloc(4_000_000) };
    expect(nulPath({ variables: { input: { front: file, name: 'Amina' } } })).toBeNull();
    expect(nulPath({ variables: { input: { front: { ...file, filename: 'a\u0000.png' } } } })).toBe('variables.input.front.filename');
  });

  it('walks a deeply nested body without overflowing the stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(nulPath(deep)).toMatch(/^(\[0\]){200000}$/);
  });

  it('sees NUL in a URL and in GraphQL string escapes', () => {
    expect(urlHasNul('/a/b%00c?x=1')).toBe(true);
    expect(urlHasNul('/a/b?x=%2500')).toBe(false);
    expect(graphqlHasNulEscape('{ f(x: "a\\u0000") }')).toBe(true);
    expect(graphqlHasNulEscape('{ f(x: "a\\u{00}") }')).toBe(true);
    expect(graphqlHasNulEscape('{ f(x: "a\\u0041") }')).toBe(false);
  });
});
