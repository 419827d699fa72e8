import type { Position } from './cypher.ast.js';

/** A query the Cypher parser or compiler refuses, with the position (line, column) of the offending token when known. */
export class CypherError extends Error {
  constructor(
    readonly reason: string,
    readonly position: Position | null,
    readonly kind: 'syntax' | 'unsupported' | 'write' | 'semantic' = 'syntax',
  ) {
    super(position ? `${reason} (line ${position.line}, column ${position.column})` : reason);
  }
}
