/**
 * PostgreSQL text cannot hold NUL (U+0000): input carrying one is the client's mistake, refused at
 * the edge (gateway and REST adapter) before it can reach a query as a 500.
 */
export const nulMessage = (where: string) => `${where} must not contain NUL characters (\\u0000)`;

/** The path (`variables.input.name`, `items[2]`) of the first string or key holding a NUL, else null. */
export function nulPath(value: unknown, root = ''): string | null {
  // iterative: a deeply nested body must not overflow the stack
  const pending: Array<[unknown, string]> = [[value, root]];
  while (pending.length) {
    const [v, path] = pending.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return path;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) pending.push([v[i], `${path}[${i}]`]);
    } else if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) {
      // bytes (an uploaded file's) hold no text: never walked
      for (const [key, child] of Object.entries(v).reverse()) {
        const at = path ? `${path}.${key}` : key;
        if (key.includes('\u0000')) return at;
        pending.push([child, at]);
      }
    }
  }
  return null;
}

/** `%00` in a raw URL (path or query string). */
export const urlHasNul = (url: string): boolean => /%00/i.test(url);

/** A GraphQL document whose string literals spell NUL (`\u0000`, `\u{0}`). */
export const graphqlHasNulEscape = (document: string): boolean => /\\u(?:0000|\{0+\})/i.test(document);
