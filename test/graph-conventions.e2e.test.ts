import { readFileSync } from 'node:fs';
import { API_SCHEMA_FILE } from '../cli/schema-files.js';
import { startTestStack, type TestStack } from './support/stack.js';

/**
 * The graph's conventions (docs/graphql-conventions.md) through the gateway: nullable lookups,
 * payloads with user errors that name the field, connections that page without gaps or repeats
 * while records arrive.
 */
describe('GraphQL conventions', () => {
  let stack: TestStack;
  let h: Record<string, string>;

  beforeAll(async () => {
    stack = await startTestStack();
    h = { 'x-api-key': (await stack.createClient({ name: 'conventions' })).apiKey };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const USER_ERRORS = 'userErrors { field code message }';

  it('publishes the API schema for code generation, without a key', async () => {
    const res = await fetch(stack.urls.gateway!.replace(/\/graphql$/, '/schema.graphql'));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(readFileSync(API_SCHEMA_FILE, 'utf8'));
  });

  it('a lookup of a record that does not exist is null, without an error, and leaves the rest of the answer', async () => {
    const res = await stack.gql(
      `{ identityVerification(id: "00000000-0000-4000-8000-000000000000") { id } verificationStatus { service } }`,
      {},
      h,
    );
    expect(res.body).toEqual({ data: { identityVerification: null, verificationStatus: { service: 'verification' } } });
  });

  describe('user errors', () => {
    const create = (input: Record<string, unknown>) =>
      stack.gql(
        `mutation($input: CreateIdentityVerificationInput!) { createIdentityVerification(input: $input) { identityVerification { id } ${USER_ERRORS} } }`,
        { input },
        h,
      );
    const review = (input: Record<string, unknown>) =>
      stack.gql(
        `mutation($input: ReviewIdentityVerificationInput!) { reviewIdentityVerification(input: $input) { identityVerification { id overallStatus } ${USER_ERRORS} } }`,
        { input },
        h,
      );

    it('name the input field each validation rule judges', async () => {
      const res = await create({ userId: '' });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.createIdentityVerification).toEqual({
        identityVerification: null,
        userErrors: [{ field: ['input', 'userId'], code: 'VALIDATION_FAILED', message: 'userId must not be empty' }],
      });
      const long = await create({ userId: 'x'.repeat(256) });
      expect(long.body.data.createIdentityVerification.userErrors).toEqual([
        { field: ['input', 'userId'], code: 'VALIDATION_FAILED', message: 'userId must be shorter than or equal to 255 characters' },
      ]);
      const id = (await create({ userId: 'form' })).body.data.createIdentityVerification.identityVerification.id;
      const reviewed = await review({ id, decision: 'VERIFIED', reviewedBy: '', reviewNotes: '' });
      expect(reviewed.body.data.reviewIdentityVerification.userErrors).toEqual([
        { field: ['input', 'reviewedBy'], code: 'VALIDATION_FAILED', message: 'reviewedBy must not be empty' },
        { field: ['input', 'reviewNotes'], code: 'VALIDATION_FAILED', message: 'reviewNotes must not be empty' },
      ]);
    });

    it('say a record is missing or in the wrong state, with no field', async () => {
      const missing = await review({ id: '00000000-0000-4000-8000-000000000000', decision: 'VERIFIED', reviewedBy: 'r', reviewNotes: 'n' });
      expect(missing.body.data.reviewIdentityVerification).toEqual({
        identityVerification: null,
        userErrors: [{ field: null, code: 'NOT_FOUND', message: 'Identity verification 00000000-0000-4000-8000-000000000000 not found' }],
      });
      const id = (await create({ userId: 'twice' })).body.data.createIdentityVerification.identityVerification.id;
      const first = await review({ id, decision: 'REJECTED', reviewedBy: 'r', reviewNotes: 'n' });
      expect(first.body.data.reviewIdentityVerification).toEqual({
        identityVerification: { id, overallStatus: 'REJECTED' },
        userErrors: [],
      });
      const again = await review({ id, decision: 'VERIFIED', reviewedBy: 'r', reviewNotes: 'n' });
      expect(again.body.data.reviewIdentityVerification.identityVerification).toBeNull();
      expect(again.body.data.reviewIdentityVerification.userErrors).toEqual([
        { field: null, code: 'CONFLICT', message: expect.stringMatching(/REJECTED/) },
      ]);
    });
  });

  it('a connection pages through more than 100 records without gaps or repeats while new ones arrive', async () => {
    const createMany = async (prefix: string, n: number) => {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        const res = await stack.rest('POST', '/verifications/identity', { userId: `${prefix}-${i}` }, h);
        ids.push(res.body.id);
      }
      return ids;
    };
    const before = await createMany('page', 130);
    const query = `query($after: String) { identityVerifications(filter: { status: PENDING }, first: 40, after: $after) {
      totalCount edges { cursor node { id } } nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
    const seen: string[] = [];
    const arrived: string[] = [];
    let after: string | null = null;
    for (let pages = 0; ; pages++) {
      const res: { body: { data?: any } } = await stack.gql(query, { after }, h);
      const page = res.body.data.identityVerifications;
      expect(page.nodes).toEqual(page.edges.map((e: { node: unknown }) => e.node));
      expect(page.pageInfo.startCursor).toBe(page.edges[0]?.cursor ?? null);
      expect(page.pageInfo.hasPreviousPage).toBe(after !== null);
      seen.push(...page.nodes.map((n: { id: string }) => n.id));
      // new records arrive between pages: they are newer, so they sit before the first page
      arrived.push(...(await createMany(`late${pages}`, 3)));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => before.includes(id)).sort()).toEqual([...before].sort());
    expect(seen.some((id) => arrived.includes(id))).toBe(false);
    const total = (await stack.gql(`{ identityVerifications(filter: { status: PENDING }, first: 1) { totalCount } }`, {}, h)).body.data;
    expect(total.identityVerifications.totalCount).toBeGreaterThanOrEqual(before.length + arrived.length);
  }, 120_000);

  it('refuses a page larger than the cap and a cursor that is not one', async () => {
    const big = await stack.gql(`{ identityVerifications(first: 101) { totalCount } }`, {}, h);
    expect(big.body.errors?.[0]).toMatchObject({ message: 'first must be at most 100', extensions: { code: 'VALIDATION_FAILED' } });
    const keyOfAnotherKind = Buffer.from(JSON.stringify({ k: ['2026-11-25T10:00:00.000Z', 'not-a-uuid'] })).toString('base64url');
    const other = await stack.gql(
      `query($after: String) { identityVerifications(after: $after) { totalCount } }`,
      { after: keyOfAnotherKind },
      h,
    );
    expect(other.body.errors?.[0]).toMatchObject({ message: 'after is not a cursor of this list', extensions: { code: 'BAD_USER_INPUT' } });
    const forged = await stack.gql(`{ identityVerifications(after: "not-a-cursor") { totalCount } }`, {}, h);
    expect(forged.body.errors?.[0]).toMatchObject({
      message: 'after is not a cursor of this list',
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });
});
