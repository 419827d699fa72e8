import { registerEnumType } from 'type-graphql';

/**
 * Risk stores its closed sets in the spec's lower case (`review`, `fan_in`); the graph shows them
 * in SCREAMING_CASE. A GraphQL enum whose value names are the upper-case forms of the stored
 * values, which resolvers and services keep using as they are.
 */
export function storedEnum<T extends string>(
  name: string,
  values: readonly T[],
  description: string,
  valueDescriptions: Record<T, string>,
): { [K in Uppercase<T>]: T } {
  const type = Object.fromEntries(values.map((value) => [value.toUpperCase(), value])) as { [K in Uppercase<T>]: T };
  registerEnumType(type, {
    name,
    description,
    valuesConfig: Object.fromEntries(values.map((value) => [value.toUpperCase(), { description: valueDescriptions[value] }])) as never,
  });
  return type;
}
