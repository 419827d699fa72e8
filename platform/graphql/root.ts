import { createParameterDecorator } from 'type-graphql';

/**
 * The parent of a field resolver, as its own resolver returned it. type-graphql's `@Root()` copies
 * the parent into a new instance of the parameter's class for every such field of every record (a
 * MikroORM entity into its GraphQL type, once per field): the types here are plain data, nothing
 * needs the copy.
 */
export const Root = () => createParameterDecorator(({ root }) => root);
