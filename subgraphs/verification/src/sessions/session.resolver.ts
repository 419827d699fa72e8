import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { VerificationContext } from '../verification.shared.js';
import { SessionService } from './session.service.js';
import { CreateSessionTokenInput, CreateSessionTokenPayload, scopeName, scopeOf } from './session.type.js';

type Ctx = VerificationContext;

@Resolver()
export class SessionResolver {
  @Mutation(() => CreateSessionTokenPayload, {
    description:
      'Creates a session token for one of your users: a web page or an app shows the person their own records, live, without an API key',
  })
  createSessionToken(@Arg('input') input: CreateSessionTokenInput, @Ctx() ctx: Ctx) {
    const session = new SessionService(ctx.principal, ctx.deps.internalSecret).create({ ...input, scopes: input.scopes.map(scopeOf) });
    return { sessionToken: { ...session, scopes: session.scopes.map(scopeName) } };
  }
}
