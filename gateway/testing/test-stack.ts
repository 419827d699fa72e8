import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FileUpload } from 'graphql-upload-minimal';
import { GraphQLUpload } from 'graphql-upload-minimal';
import { conflict, forbidden, rateLimited, unauthenticated } from '../../platform/errors.js';
import type { Principal } from '../../platform/auth/principal.js';
import { createLogger } from '../../platform/logger.js';
import { startGateway, type GatewayOptions, type RunningGateway } from '../gateway.js';
import { composeSupergraph, startTestSubgraph, TestPubSub, type TestSubgraph, type TestSubgraphContext } from './subgraph-server.js';

export const INTERNAL_SECRET = 'test-internal-secret';

export const PRINCIPAL: Principal = {
  kind: 'client',
  organizationId: 'org-1',
  clientId: 'client-1',
  service: 'verification',
  environment: 'test',
  permissions: [],
};

/**
 * Keys the fake edge authentication knows: `good` passes, `limited` is rate limited, `banned`
 * forbidden, `metered` passes while `METER.remaining` covers the units asked (then 429), and a key
 * in `REVOKED` is refused as unknown; `elsewhere` passes as a client of another organization.
 */
export const API_KEYS = { good: 'good', limited: 'limited', banned: 'banned', metered: 'metered', elsewhere: 'elsewhere' };
export const RETRY_AFTER_SECONDS = 42;
export const METER = { remaining: Number.POSITIVE_INFINITY };
export const REVOKED = new Set<string>();

export const authenticate: GatewayOptions['authenticate'] = async ({ headers, units = 1 }) => {
  const bearer = headers.authorization?.replace(/^Bearer /, '');
  const key = headers['x-api-key'] ?? bearer;
  if (typeof key === 'string' && REVOKED.has(key)) throw unauthenticated('Invalid API key');
  if (key === API_KEYS.metered) {
    if (units > METER.remaining) throw rateLimited(RETRY_AFTER_SECONDS);
    METER.remaining -= units;
    return { principal: PRINCIPAL };
  }
  if (key === API_KEYS.good)
    return { principal: PRINCIPAL, headers: { 'RateLimit-Limit': '100', 'RateLimit-Remaining': '99', 'RateLimit-Reset': '60' } };
  if (key === API_KEYS.elsewhere) return { principal: { ...PRINCIPAL, organizationId: 'org-2', clientId: 'client-2' } };
  if (key === API_KEYS.limited) throw rateLimited(RETRY_AFTER_SECONDS);
  if (key === API_KEYS.banned) throw forbidden('This API client is disabled');
  throw unauthenticated();
};

const verificationTypeDefs = /* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
  scalar Upload
  enum IdentityTier {
    BASIC
    STANDARD
    ENHANCED
  }
  input CreateIdentityInput {
    userId: String!
    tier: IdentityTier
    address: AddressInput
  }
  input AddressInput {
    city: String!
    zip: Int
  }
  type Identity @key(fields: "id") {
    id: ID!
    status: String!
  }
  type Document {
    filename: String!
    mimetype: String!
    size: Int!
    sha256: String!
    label: String
  }
  type Query {
    identity(id: ID!): Identity
    whoami: String
    conflicting: String
    crashing: String
  }
  type Mutation {
    createIdentity(input: CreateIdentityInput!): Identity
    uploadDocument(file: Upload!, label: String): Document
    uploadDocuments(files: [Upload!]!): [Document!]!
  }
  type Subscription {
    identityUpdated(id: ID!): Identity!
  }
`;

const riskTypeDefs = /* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
  type Identity @key(fields: "id") {
    id: ID!
    riskScore: Int!
  }
  type Query {
    riskPing: String
  }
`;

async function describeFile(upload: Promise<FileUpload>) {
  const { filename, mimetype, createReadStream } = await upload;
  const chunks: Buffer[] = [];
  for await (const chunk of createReadStream() as unknown as Readable) chunks.push(chunk as Buffer);
  const content = Buffer.concat(chunks);
  return { filename, mimetype, size: content.length, sha256: createHash('sha256').update(content).digest('hex') };
}

/** Two in-process subgraphs (verification owns Identity.status, risk owns Identity.riskScore) behind the gateway. */
export interface TestStack {
  gateway: RunningGateway;
  verification: TestSubgraph;
  risk: TestSubgraph;
  pubsub: TestPubSub;
  stop(): Promise<void>;
}

export async function startTestStack(overrides: Partial<GatewayOptions> = {}): Promise<TestStack> {
  const pubsub = new TestPubSub();
  const verification = await startTestSubgraph(
    {
      name: 'verification',
      typeDefs: verificationTypeDefs,
      resolvers: {
        Upload: GraphQLUpload,
        Query: {
          identity: (_: unknown, { id }: { id: string }) => ({ id, status: 'VERIFIED' }),
          whoami: (_: unknown, __: unknown, { principal }: TestSubgraphContext) => principal?.clientId ?? null,
          conflicting: () => {
            throw conflict('Identity already exists');
          },
          crashing: () => {
            throw new Error('connection to db-internal.example:5432 refused');
          },
        },
        Mutation: {
          createIdentity: (_: unknown, { input }: { input: { userId: string } }) => ({ id: input.userId, status: 'PENDING' }),
          uploadDocument: async (_: unknown, { file, label }: { file: Promise<FileUpload>; label?: string }) => ({
            ...(await describeFile(file)),
            label,
          }),
          uploadDocuments: (_: unknown, { files }: { files: Array<Promise<FileUpload>> }) => Promise.all(files.map(describeFile)),
        },
        Subscription: {
          identityUpdated: {
            subscribe: (_: unknown, { id }: { id: string }) => pubsub.subscribe(`identity:${id}`),
            resolve: (payload: unknown) => payload,
          },
        },
      },
    },
    INTERNAL_SECRET,
  );
  const risk = await startTestSubgraph(
    {
      name: 'risk',
      typeDefs: riskTypeDefs,
      resolvers: {
        Query: { riskPing: () => 'pong' },
        Identity: {
          __resolveReference: ({ id }: { id: string }) => {
            if (id === 'crash') throw new Error('connection to db-internal.example:5432 refused');
            return { id, riskScore: id.length * 10 };
          },
        },
      },
    },
    INTERNAL_SECRET,
  );
  const gateway = await startGateway({
    supergraphSdl: composeSupergraph([verification, risk]),
    subgraphUrls: { verification: verification.url, risk: risk.url },
    authenticate,
    internalSecret: INTERNAL_SECRET,
    logger: createLogger('gateway-test'),
    port: 0,
    host: '127.0.0.1',
    ...overrides,
  });
  return {
    gateway,
    verification,
    risk,
    pubsub,
    async stop() {
      await gateway.stop();
      await Promise.all([verification.stop(), risk.stop()]);
    },
  };
}

/** POSTs a GraphQL operation to the gateway as a JSON client would. */
export async function graphqlPost(stack: TestStack, body: unknown, headers: Record<string, string> = { 'x-api-key': API_KEYS.good }) {
  const response = await fetch(stack.gateway.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as { data?: any; errors?: any[] } };
}
