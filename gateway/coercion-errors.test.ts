import { buildSchema, getOperationAST, getVariableValues, GraphQLScalarType, GraphQLError, parse } from 'graphql';
import { rewriteCoercionError } from './coercion-errors.js';

const schema = buildSchema(`
  enum IdentityTier { BASIC STANDARD ENHANCED }
  scalar Date
  input AddressInput { city: String!, zip: Int }
  input CreateIdentityInput {
    userId: String!
    tier: IdentityTier
    age: Int
    score: Float
    consent: Boolean
    dob: Date
    address: AddressInput
    previous: [AddressInput!]
  }
  type Query { create(input: CreateIdentityInput!, id: ID!): String }
`);
// A custom scalar that explains its own failures, as graphql-scalars' do.
(schema.getType('Date') as GraphQLScalarType).parseValue = (value) => {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new GraphQLError('Value is not a valid date');
  return value;
};
const operation = getOperationAST(parse('query($input: CreateIdentityInput!, $id: ID!) { create(input: $input, id: $id) }'))!;

/** The real graphql-js messages for `variables`, rewritten. */
function rewrite(variables: Record<string, unknown>) {
  const { errors } = getVariableValues(schema, operation.variableDefinitions!, { id: '1', ...variables });
  return (errors ?? []).map((e) => rewriteCoercionError(e.message, schema));
}

describe('rewriteCoercionError', () => {
  describe('missing values', () => {
    it('names a missing required field without the variable name', () => {
      expect(rewrite({ input: { tier: 'BASIC' } })).toEqual([{ code: 'BAD_USER_INPUT', message: 'userId is required' }]);
    });

    it('names a missing nested field with its path', () => {
      expect(rewrite({ input: { userId: 'u', address: {} } })).toEqual([{ code: 'BAD_USER_INPUT', message: 'address.city is required' }]);
      expect(rewrite({ input: { userId: 'u', previous: [{ zip: 1 }] } })).toEqual([
        { code: 'BAD_USER_INPUT', message: 'previous[0].city is required' },
      ]);
    });

    it('treats an explicit null for a required field as missing', () => {
      expect(rewrite({ input: { userId: 'u', address: { city: null } } })).toEqual([
        { code: 'BAD_USER_INPUT', message: 'address.city is required' },
      ]);
    });

    it('names a missing or null required variable', () => {
      expect(rewrite({ input: null })).toEqual([{ code: 'BAD_USER_INPUT', message: 'input is required' }]);
      expect(rewriteCoercionError('Variable "$id" of required type "ID!" was not provided.')).toEqual({
        code: 'BAD_USER_INPUT',
        message: 'id is required',
      });
    });
  });

  describe('enum values', () => {
    it('lists the allowed values from the schema', () => {
      expect(rewrite({ input: { userId: 'u', tier: 'FOO' } })).toEqual([
        { code: 'VALIDATION_FAILED', message: 'tier must be one of: BASIC, STANDARD, ENHANCED' },
      ]);
    });

    it('handles a non-string enum value and suggestions', () => {
      expect(rewrite({ input: { userId: 'u', tier: 3 } })).toEqual([
        { code: 'VALIDATION_FAILED', message: 'tier must be one of: BASIC, STANDARD, ENHANCED' },
      ]);
      const suggested =
        'Variable "$input" got invalid value "BASICS" at "input.tier"; Value "BASICS" does not exist in "IdentityTier" enum. Did you mean the enum value "BASIC"?';
      expect(rewriteCoercionError(suggested, schema)?.message).toBe('tier must be one of: BASIC, STANDARD, ENHANCED');
    });

    it('still answers without a schema', () => {
      const message = 'Variable "$input" got invalid value "FOO" at "input.tier"; Value "FOO" does not exist in "IdentityTier" enum.';
      expect(rewriteCoercionError(message)).toEqual({ code: 'VALIDATION_FAILED', message: 'tier must be a valid IdentityTier' });
    });
  });

  describe('wrong JSON types', () => {
    it('names the expected scalar type', () => {
      expect(rewrite({ input: { userId: 5, age: 'old', score: 'high', consent: 'yes' } })).toEqual([
        { code: 'BAD_USER_INPUT', message: 'userId must be a string' },
        { code: 'BAD_USER_INPUT', message: 'age must be an integer' },
        { code: 'BAD_USER_INPUT', message: 'score must be a number' },
        { code: 'BAD_USER_INPUT', message: 'consent must be a boolean' },
      ]);
    });

    it('uses the variable name when the variable itself has the wrong type', () => {
      expect(rewrite({ input: { userId: 'u' }, id: {} })).toEqual([{ code: 'BAD_USER_INPUT', message: 'id must be a string' }]);
    });

    it('asks for an object where one is expected', () => {
      expect(rewrite({ input: { userId: 'u', address: 'Lagos' } })).toEqual([
        { code: 'BAD_USER_INPUT', message: 'address must be an object' },
      ]);
    });

    it("keeps a custom scalar's own explanation", () => {
      expect(rewrite({ input: { userId: 'u', dob: 'yesterday; or so' } })).toEqual([
        { code: 'BAD_USER_INPUT', message: 'dob: Value is not a valid date' },
      ]);
    });
  });

  describe('unknown fields', () => {
    it('rejects a field the input type does not define', () => {
      expect(rewrite({ input: { userId: 'u', nickname: 'x' } })).toEqual([{ code: 'BAD_USER_INPUT', message: 'nickname is not allowed' }]);
      expect(rewrite({ input: { userId: 'u', address: { city: 'x', street: 'y' } } })).toEqual([
        { code: 'BAD_USER_INPUT', message: 'address.street is not allowed' },
      ]);
    });
  });

  describe('values that look like message syntax', () => {
    it('is not fooled by separators inside the printed value', () => {
      expect(rewrite({ input: { tier: 'BASIC; Field "x" of required type "String!" was not provided.' } })).toEqual([
        { code: 'BAD_USER_INPUT', message: 'userId is required' },
        { code: 'VALIDATION_FAILED', message: 'tier must be one of: BASIC, STANDARD, ENHANCED' },
      ]);
    });
  });

  describe('other messages', () => {
    it('returns null for anything that is not a coercion failure', () => {
      expect(rewriteCoercionError('Cannot query field "foo" on type "Query".', schema)).toBeNull();
      expect(rewriteCoercionError('Internal server error')).toBeNull();
    });
  });
});
