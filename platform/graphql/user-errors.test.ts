import 'reflect-metadata';
import { buildSchema, execute, parse } from 'graphql';
import { Arg, Field, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { AppError } from '../errors.js';
import { buildSubgraph } from './subgraph.js';
import { fieldOf, UserError } from './user-errors.js';

const schema = buildSchema(`
  input SendInput { to: String, recipients: [RecipientInput!], channels: [String!] }
  input RecipientInput { to: String }
  type Query { ok: Boolean }
  type Mutation { send(input: SendInput!, dryRun: Boolean): Boolean }
`);
const send = schema.getMutationType()!.getFields().send;

describe('fieldOf: the input field a validation message names', () => {
  it.each([
    ['to must be an e-mail address or an E.164 number', ['input', 'to']],
    ['recipients.3.to: recipient r9 not found', ['input', 'recipients', '3', 'to']],
    ['recipients[3].to: recipient r9 not found', ['input', 'recipients', '3', 'to']],
    ['channels must be among: email, sms, push (unknown: fax)', ['input', 'channels']],
    ['dryRun must be a boolean', ['dryRun']],
    ['Template welcome not found', null],
    ['Give id or userId', null],
  ])('%s', (message, field) => {
    expect(fieldOf(message, send)).toEqual(field);
  });
});

@ObjectType('Thing')
class Thing {
  @Field()
  name!: string;
}

@ObjectType('RenamePayload')
class RenamePayload {
  @Field(() => Thing, { nullable: true })
  thing?: Thing | null;

  @Field(() => [UserError])
  userErrors!: UserError[];
}

@Resolver()
class ThingResolver {
  @Query(() => Thing)
  thing(): Thing {
    return { name: 'a' };
  }

  @Mutation(() => RenamePayload)
  rename(@Arg('name') name: string): RenamePayload {
    if (!name) throw new AppError('VALIDATION_FAILED', 'name must not be empty');
    if (name === 'boom') throw new Error('a fault');
    return { thing: { name }, userErrors: [] };
  }
}

describe('user errors in a subgraph built from type-graphql', () => {
  const built = buildSubgraph({ name: 'verification', resolvers: [ThingResolver] });
  const run = async (source: string) => execute({ schema: (await built).schema, document: parse(source) });

  it("a mutation's client mistake is answered in its payload; a fault stays an error", async () => {
    expect((await run('mutation { rename(name: "") { thing { name } userErrors { field code message } } }')).data).toEqual({
      rename: { thing: null, userErrors: [{ field: ['name'], code: 'VALIDATION_FAILED', message: 'name must not be empty' }] },
    });
    expect((await run('mutation { rename(name: "b") { thing { name } userErrors { code } } }')).data).toEqual({
      rename: { thing: { name: 'b' }, userErrors: [] },
    });
    const fault = await run('mutation { rename(name: "boom") { userErrors { code } } }');
    expect(fault.errors?.[0].message).toBe('a fault');
  });

  it("a query's fields resolve without a promise each (no middleware on every field)", async () => {
    const { schema } = await built;
    const result = execute({ schema, document: parse('{ thing { name } }') });
    expect(result).not.toBeInstanceOf(Promise);
    expect(result).toEqual({ data: { thing: { name: 'a' } } });
  });
});
