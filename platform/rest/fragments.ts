/**
 * The selections routes share. A route file holds one fragment per GraphQL type it returns (a field
 * added to the type is added there once); an operation appends only the fragments it spreads
 * (GraphQL rejects unused fragments). A REST body lists its members in the selection's order.
 */

/** Every mutation route selects its payload's user errors: the handler turns them into the REST error. */
export const USER_ERRORS = /* GraphQL */ `
  fragment UserErrorFields on UserError {
    field
    code
    message
  }
`;
