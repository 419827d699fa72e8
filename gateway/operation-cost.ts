import { Kind, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';

/** Token budget of a document parsed outside Apollo (graphql-ws, multipart), as graphql-armor's on HTTP. */
export const MAX_TOKENS = 2000;

/**
 * What an operation counts against the rate limit: one, except a mutation, which counts one per
 * root field, so 15 aliased `sendNotificationBatch` calls in one request cost what 15 requests do.
 */
export function rateLimitUnits(document: DocumentNode, operation: OperationDefinitionNode): number {
  if (operation.operation !== 'mutation') return 1;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const count = (set: SelectionSetNode, within: ReadonlySet<string>): number =>
    set.selections.reduce((n, selection) => {
      if (selection.kind === Kind.FIELD) return n + (selection.name.value === '__typename' ? 0 : 1);
      if (selection.kind === Kind.INLINE_FRAGMENT) return n + count(selection.selectionSet, within);
      const name = selection.name.value;
      const fragment = fragments.get(name);
      // validation refuses unknown and cyclic fragments; never loop on them here
      return fragment && !within.has(name) ? n + count(fragment.selectionSet, new Set([...within, name])) : n;
    }, 0);
  return Math.max(1, count(operation.selectionSet, new Set()));
}
