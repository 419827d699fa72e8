import { getNamedType, isInputObjectType, isObjectType, type GraphQLField, type GraphQLSchema } from 'graphql';
import { Directive, Field, ObjectType, registerEnumType } from 'type-graphql';
import { AppError, type ErrorCode } from '../errors.js';

/**
 * Client mistakes in a mutation (an invalid field, a record in the wrong state, a record that does
 * not exist) are answered in its payload's `userErrors`, not as top-level errors: a form shows
 * them next to the field at fault, and the rest of the response stays usable. Top-level errors are
 * left for authentication, permissions, limits and faults (docs/graphql-conventions.md).
 */

export const USER_ERROR_CODES = ['VALIDATION_FAILED', 'BAD_USER_INPUT', 'NOT_FOUND', 'CONFLICT'] as const satisfies readonly ErrorCode[];
export type UserErrorCode = (typeof USER_ERROR_CODES)[number];

const UserErrorCodeEnum = Object.fromEntries(USER_ERROR_CODES.map((code) => [code, code])) as { [K in UserErrorCode]: K };
registerEnumType(UserErrorCodeEnum, {
  name: 'UserErrorCode',
  description: 'What kind of mistake a user error is (the REST status it maps to)',
  valuesConfig: {
    VALIDATION_FAILED: { description: 'A field breaks a rule of its own (format, range, size); REST 422, or 400 where the spec says so' },
    BAD_USER_INPUT: { description: 'The input cannot be used as given (malformed, contradictory); REST 400' },
    NOT_FOUND: { description: 'A record the input names does not exist for the caller; REST 404' },
    CONFLICT: { description: 'The record is in a state that does not allow this change, or the change was made before; REST 409' },
  },
});

@ObjectType('UserError', { description: 'A mistake in a mutation’s input or in the state of the record it changes' })
@Directive('@shareable')
export class UserError {
  @Field(() => [String], {
    nullable: true,
    description: 'Path of the input field at fault, from the argument down (e.g. ["input", "callbackUrl"]); null when no single field is',
  })
  field!: string[] | null;

  @Field(() => UserErrorCodeEnum, { description: 'Kind of mistake' })
  code!: UserErrorCode;

  @Field({ description: 'What is wrong, in words a person can act on' })
  message!: string;
}

/** The payload of a mutation: its record (null when it failed) and the user errors. */
export interface Payload {
  userErrors: UserError[];
}

const isUserErrorCode = (code: ErrorCode): code is UserErrorCode => (USER_ERROR_CODES as readonly string[]).includes(code);

/**
 * Validation messages start with the path of the field they judge (`callbackUrl must be…`,
 * `subjects.0.fullName must…`): that path, placed under the argument it belongs to, is the
 * user error's `field` when it names one of the mutation's arguments or fields of its input.
 */
export function fieldOf(message: string, mutation: GraphQLField<unknown, unknown>): string[] | null {
  // `recipients[3].to` and `recipients.3.to` are the same path
  const path = /^([A-Za-z_]\w*(?:\.\w+|\[\d+\])*)(?=[\s:]|$)/
    .exec(message)?.[1]
    ?.replace(/\[(\d+)\]/g, '.$1')
    .split('.');
  if (!path) return null;
  if (mutation.args.some((arg) => arg.name === path[0])) return path;
  for (const arg of mutation.args) {
    const type = getNamedType(arg.type);
    if (isInputObjectType(type) && type.getFields()[path[0]]) return [arg.name, ...path];
  }
  return null;
}

export function userErrorsOf(error: AppError & { code: UserErrorCode }, mutation: GraphQLField<unknown, unknown>): UserError[] {
  return error.messages.map((message) => ({ field: fieldOf(message, mutation), code: error.code, message }));
}

/**
 * Each mutation returning a payload answers client-mistake AppErrors (its arguments' validation
 * included) as `{ userErrors }`; anything else passes through. Only those fields are wrapped: a
 * middleware on every field (type-graphql's global ones) made every field of every answer a promise.
 */
export function answerUserErrorsInPayloads(schema: GraphQLSchema): void {
  for (const mutation of Object.values(schema.getMutationType()?.getFields() ?? {})) {
    const payload = getNamedType(mutation.type);
    const resolve = mutation.resolve;
    if (!resolve || !isObjectType(payload) || !('userErrors' in payload.getFields())) continue;
    mutation.resolve = async (...args) => {
      try {
        const result = (await resolve(...args)) as Partial<Payload>;
        return { ...result, userErrors: result.userErrors ?? [] };
      } catch (error) {
        if (!(error instanceof AppError) || !isUserErrorCode(error.code)) throw error;
        return { userErrors: userErrorsOf(error as AppError & { code: UserErrorCode }, mutation) };
      }
    };
  }
}
