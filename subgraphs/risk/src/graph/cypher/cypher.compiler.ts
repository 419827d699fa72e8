import type { Query } from './cypher.ast.js';
import { CompileState, semantic, type CompileOptions, type CompiledQuery, type Stage } from './cypher.compiler.context.js';
import { ExpressionCompiler } from './cypher.compiler.expressions.js';
import { PatternCompiler } from './cypher.compiler.patterns.js';
import { ProjectionCompiler } from './cypher.compiler.projection.js';

export type { CompileOptions, CompiledQuery } from './cypher.compiler.context.js';
export { canonical } from './cypher.compiler.projection.js';

/**
 * Compiles the parsed read-only openCypher subset to ONE parameterised SQL statement over the
 * risk graph tables. Nothing the caller wrote reaches the SQL text: values become parameters,
 * names are checked against the schema (cypher.schema.ts) and replaced by generated aliases.
 *
 * The clauses are compiled in order into stages:
 * - MATCH / OPTIONAL MATCH (cypher.compiler.patterns.ts) add table reads and conditions to the
 *   current stage; OPTIONAL MATCH is a LEFT JOIN LATERAL;
 * - WITH (cypher.compiler.projection.ts) closes the stage into a subquery that starts the next one;
 *   aggregates group by the non-aggregated items;
 * - RETURN (cypher.compiler.projection.ts) renders the final statement.
 * Expressions everywhere go through cypher.compiler.expressions.ts; shared types and per-compilation
 * state live in cypher.compiler.context.ts. Every table read is restricted to the caller's
 * organization and environment ($1, $2).
 */
export function compileCypher(query: Query, opts: CompileOptions): CompiledQuery {
  const state = new CompileState(opts);
  const exprs = new ExpressionCompiler(state);
  const patterns = new PatternCompiler(state, exprs);
  const projection = new ProjectionCompiler(state, exprs);

  const clauses = query.clauses;
  const last = clauses[clauses.length - 1];
  if (last.kind !== 'return') throw semantic('A query must end with RETURN', last.pos);
  let stage: Stage = { from: [], where: [], scope: new Map() };
  for (let i = 0; i < clauses.length; i++) {
    const clause = clauses[i];
    if (clause.kind === 'return' && i !== clauses.length - 1) throw semantic('RETURN must be the last clause', clauses[i + 1].pos);
    if (clause.kind === 'match') {
      if (clause.optional) patterns.optionalMatch(stage, clause);
      else patterns.match(stage, clause);
    } else if (clause.kind === 'with') {
      stage = projection.withStage(stage, clause);
    } else {
      return projection.returnStage(stage, clause);
    }
  }
  throw semantic('A query must end with RETURN', last.pos);
}
