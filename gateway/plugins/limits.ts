import { ApolloArmor } from '@escape.tech/graphql-armor';
import express, { type RequestHandler } from 'express';
import type { Principal } from '../../platform/auth/principal.js';
import { AppError } from '../../platform/errors.js';
import { limitBytes } from '../../platform/graphql/apollo-http.js';

/** The limits every operation must pass (graphql-armor): depth, aliases, tokens, cost. */
export const ARMOR = {
  maxDepth: { n: 12 },
  maxAliases: { n: 15 },
  maxTokens: { n: 2000 },
  costLimit: { maxCost: 5000 },
};

/**
 * The operation limits as Apollo takes them: validation rules (also applied on the graphql-ws
 * path) and plugins. Field suggestions are hidden in production.
 */
export function operationLimits(production: boolean) {
  return new ApolloArmor({ ...ARMOR, blockFieldSuggestion: { enabled: production } }).protect();
}

export const MAX_JSON_BODY = '2mb';
/**
 * Some keys may send larger bodies. Notify: a 10,000-recipient batch (`sendNotificationBatch`)
 * does not fit in 2 MB once each recipient carries its template data (about 1 KB each fits in
 * 10 MB). Verification: images sent as base64 (a selfie and a document of up to 10 MB each).
 */
export const SERVICE_MAX_JSON_BODY: Partial<Record<string, string>> = { notify: '10mb', verification: '28mb', all: '28mb' };
const bodyLimitOf = (principal: Principal | undefined) => SERVICE_MAX_JSON_BODY[principal?.service ?? ''] ?? MAX_JSON_BODY;

/** `POST /graphql`'s JSON body, read with the caller's limit: after authentication, so a stranger's large body is never read. */
export function jsonBody(): RequestHandler {
  const parsers = new Map(
    [MAX_JSON_BODY, ...Object.values(SERVICE_MAX_JSON_BODY)].map((limit) => [limit, express.json({ limit })] as const),
  );
  return (req, res, next) => parsers.get(bodyLimitOf(res.locals.principal as Principal | undefined))!(req, res, next);
}

/** The same limit for a body handed over in this process (the REST adapter's door): its size in bytes. */
export function bodyTooLarge(principal: Principal, bytes: number): AppError | null {
  return bytes > limitBytes(bodyLimitOf(principal)) ? new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large') : null;
}
