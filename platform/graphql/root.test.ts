import 'reflect-metadata';
import { execute, parse } from 'graphql';
import { Field, FieldResolver, ObjectType, Query, Resolver } from 'type-graphql';
import { buildSubgraph } from './subgraph.js';
import { Root } from './root.js';

@ObjectType('Parcel')
class ParcelType {
  @Field()
  id!: string;
}

/** What the query resolver returns: another class than the GraphQL type (as a MikroORM entity is). */
class ParcelRecord {
  constructor(
    readonly id: string,
    readonly weightGrams: number,
  ) {}
}

const parents: unknown[] = [];

@Resolver(() => ParcelType)
class ParcelResolver {
  @Query(() => [ParcelType])
  parcels(): ParcelRecord[] {
    return [new ParcelRecord('p1', 250), new ParcelRecord('p2', 900)];
  }

  @FieldResolver(() => String)
  label(@Root() parcel: ParcelType): string {
    parents.push(parcel);
    return `${parcel.id} (${(parcel as unknown as ParcelRecord).weightGrams} g)`;
  }
}

describe('Root: the parent of a field resolver', () => {
  it('is the object its resolver returned, not a copy into the GraphQL type', async () => {
    const { schema } = await buildSubgraph({ name: 'notify', resolvers: [ParcelResolver] });
    const result = await execute({ schema, document: parse('{ parcels { id label } }') });
    expect(result.data).toEqual({
      parcels: [
        { id: 'p1', label: 'p1 (250 g)' },
        { id: 'p2', label: 'p2 (900 g)' },
      ],
    });
    expect(parents.map((p) => p instanceof ParcelRecord)).toEqual([true, true]);
  });
});
