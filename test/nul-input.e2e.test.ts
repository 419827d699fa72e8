import { FilePart } from '../platform/graphql/upload.js';
import { startTestStack, type TestStack } from './support/stack.js';

/** PostgreSQL text cannot hold NUL: the edge refuses it as the client's mistake (400), never a 500. */
describe('NUL characters in input', () => {
  let stack: TestStack;
  let h: Record<string, string>;
  beforeAll(async () => {
    stack = await startTestStack();
    h = { 'x-api-key': (await stack.createClient({ name: 'nul' })).apiKey };
  });
  afterAll(() => stack?.stop());

  it('GraphQL: in a variable or in the query text → 400 BAD_USER_INPUT', async () => {
    const viaVariable = await stack.gql(
      `mutation($u: String!) { createIdentityVerification(input: { userId: $u }) { identityVerification { id } } }`,
      { u: 'a\u0000b' },
      h,
    );
    expect(viaVariable.status).toBe(400);
    expect(viaVariable.body.errors![0]).toMatchObject({
      message: 'variables.u must not contain NUL characters (\\u0000)',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const inline = await stack.gql(
      `mutation { createIdentityVerification(input: { userId: "a\\u0000b" }) { identityVerification { id } } }`,
      {},
      h,
    );
    expect(inline.status).toBe(400);
    expect(inline.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('GraphQL multipart (an upload): in the operations’ variables → 400, as in a JSON body', async () => {
    const upload = await stack.gql(
      `mutation($input: CreateDocumentVerificationInput!) { createDocumentVerification(input: $input) { documentVerification { id } } }`,
      {
        input: {
          userId: 'a\u0000b',
          documentType: 'PASSPORT',
          documentCountry: 'KE',
          frontImage: new FilePart('passport.jpg', 'image/jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xd9])),
        },
      },
      h,
    );
    expect(upload.status).toBe(400);
    expect(upload.body.errors![0]).toMatchObject({
      message: 'variables.input.userId must not contain NUL characters (\\u0000)',
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });

  it('REST: in a JSON body, a path or a query string → 400', async () => {
    const body = await stack.rest('POST', '/verifications/identity', { userId: 'a\u0000b' }, h);
    expect(body.status).toBe(400);
    expect(body.body).toMatchObject({ code: 'BAD_USER_INPUT', message: ['userId must not contain NUL characters (\\u0000)'] });
    const nested = await stack.rest('POST', '/screening/aml', { userId: 'u', fullName: 'A', metadata: { notes: ['x\u0000'] } }, h);
    expect(nested.status).toBe(400);
    const path = await stack.rest('GET', '/verifications/identity/abc%00def', undefined, h);
    expect(path.status).toBe(400);
    expect(path.body.code).toBe('BAD_USER_INPUT');
    const query = await stack.rest('GET', '/verifications/identity/user/a%00b?page=1', undefined, h);
    expect(query.status).toBe(400);
    const queryString = await stack.rest('GET', '/monitoring/watchlist/alerts?userId=a%00b', undefined, h);
    expect(queryString.status).toBe(400);
  });
});
