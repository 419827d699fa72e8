import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { MAX_UPLOAD_BYTES as MAX_FILE_SIZE, MAX_UPLOAD_FILES as MAX_FILES } from '../platform/graphql/upload.js';
import { API_KEYS, PRINCIPAL, startTestStack, type TestStack } from './testing/test-stack.js';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.stop();
});

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

interface TestFile {
  name: string;
  type: string;
  content: Buffer;
}

/** A graphql-multipart-request-spec request, as Apollo's upload clients send it. */
async function upload(operations: { query: string; variables: Record<string, unknown> }, map: Record<string, string[]>, files: TestFile[]) {
  const form = new FormData();
  form.append('operations', JSON.stringify(operations));
  form.append('map', JSON.stringify(map));
  files.forEach((file, i) => form.append(String(i), new Blob([file.content], { type: file.type }), file.name));
  const response = await fetch(stack.gateway.url, {
    method: 'POST',
    headers: { 'x-api-key': API_KEYS.good, 'apollo-require-preflight': 'true' },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as { data?: any; errors?: any[] } };
}

const UPLOAD_ONE =
  'mutation($file: Upload!, $label: String) { uploadDocument(file: $file, label: $label) { filename mimetype size sha256 label } }';

describe('uploads through the gateway', () => {
  describe('happy path', () => {
    it('forwards a file to the subgraph byte for byte, with a principal signed for that multipart request', async () => {
      stack.verification.principals.length = 0;
      const content = randomBytes(300 * 1024);
      const { status, body } = await upload(
        { query: UPLOAD_ONE, variables: { file: null, label: 'passport' } },
        { 0: ['variables.file'] },
        [{ name: 'passport.jpg', type: 'image/jpeg', content }],
      );
      expect(status).toBe(200);
      expect(body).toEqual({
        data: {
          uploadDocument: {
            filename: 'passport.jpg',
            mimetype: 'image/jpeg',
            size: content.length,
            sha256: sha256(content),
            label: 'passport',
          },
        },
      });
      expect(stack.verification.principals).toEqual([PRINCIPAL]);
    });

    it('forwards a list of files', async () => {
      const files = [Buffer.from('front side'), Buffer.from('back side')];
      const { body } = await upload(
        {
          query: 'mutation($files: [Upload!]!) { uploadDocuments(files: $files) { filename sha256 } }',
          variables: { files: [null, null] },
        },
        { 0: ['variables.files.0'], 1: ['variables.files.1'] },
        files.map((content, i) => ({ name: `side-${i}.png`, type: 'image/png', content })),
      );
      expect(body.data.uploadDocuments).toEqual(files.map((content, i) => ({ filename: `side-${i}.png`, sha256: sha256(content) })));
    });
  });

  describe('limits', () => {
    it('refuses a multipart request without a CSRF preflight header, before reading its files', async () => {
      const form = new FormData();
      form.append('operations', JSON.stringify({ query: UPLOAD_ONE, variables: { file: null } }));
      form.append('map', JSON.stringify({ 0: ['variables.file'] }));
      form.append('0', new Blob([Buffer.from('x')]), 'x.txt');
      stack.verification.received.length = 0;
      const response = await fetch(stack.gateway.url, { method: 'POST', headers: { 'x-api-key': API_KEYS.good }, body: form });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { errors: any[] }).errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(stack.verification.received).toHaveLength(0);
    });

    it('refuses files sent to an operation that takes none, or mapped to a variable that takes none, without reading them', async () => {
      stack.verification.received.length = 0;
      const content = Buffer.alloc(5 * 1024 * 1024);
      const noUpload = await upload(
        {
          query: 'mutation($input: CreateIdentityInput!) { createIdentity(input: $input) { id } }',
          variables: { input: { userId: null } },
        },
        { 0: ['variables.input.userId'] },
        [{ name: 'big.bin', type: 'application/octet-stream', content }],
      );
      expect(noUpload.status).toBe(400);
      expect(noUpload.body.errors![0]).toEqual({
        message: 'This operation takes no file uploads: send it as application/json',
        extensions: { code: 'BAD_USER_INPUT' },
      });
      const misplaced = await upload(
        {
          query: 'mutation($file: Upload!, $label: String) { uploadDocument(file: $file, label: $label) { sha256 } }',
          variables: { file: null, label: null },
        },
        { 0: ['variables.label'] },
        [{ name: 'big.bin', type: 'application/octet-stream', content }],
      );
      expect(misplaced.status).toBe(400);
      expect(misplaced.body.errors![0].message).toBe('Variable $label takes no file upload');
      expect(stack.verification.received).toHaveLength(0);
    });

    it('a refused upload leaves its keep-alive connection able to serve the next request (its unread files once stuck it)', async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const post = (type: string, body: Buffer) =>
        new Promise<{ status?: number; reused: boolean; text: string }>((resolve, reject) => {
          const { hostname, port, pathname } = new URL(stack.gateway.url);
          const headers = {
            'x-api-key': API_KEYS.good,
            'apollo-require-preflight': 'true',
            'content-type': type,
            'content-length': body.length,
          };
          const req = http.request({ agent, hostname, port, path: pathname, method: 'POST', headers }, (res) => {
            let text = '';
            res.on('data', (chunk) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode, reused: req.reusedSocket, text }));
          });
          req.on('error', reject);
          req.setTimeout(20_000, () => req.destroy(new Error('no answer on this connection')));
          req.end(body);
        });
      const operations = {
        query: 'mutation($input: CreateIdentityInput!) { createIdentity(input: $input) { id } }',
        variables: { input: { userId: null } },
      };
      const refused = Buffer.concat([
        Buffer.from(
          `--zz\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${JSON.stringify(operations)}\r\n` +
            `--zz\r\nContent-Disposition: form-data; name="map"\r\n\r\n{"0":["variables.input.userId"]}\r\n` +
            `--zz\r\nContent-Disposition: form-data; name="0"; filename="a.bin"\r\n\r\n`,
        ),
        Buffer.alloc(1024 * 1024, 'a'),
        Buffer.from('\r\n--zz--\r\n'),
      ]);
      try {
        expect((await post('multipart/form-data; boundary=zz', refused)).status).toBe(400);
        const next = await post('application/json', Buffer.from(JSON.stringify({ query: '{ __typename }' })));
        expect(next).toEqual({ status: 200, reused: true, text: JSON.stringify({ data: { __typename: 'Query' } }) + '\n' });
      } finally {
        agent.destroy();
      }
    });

    it('answers 413 PAYLOAD_TOO_LARGE for a file over 10 MB', async () => {
      const { status, body } = await upload({ query: UPLOAD_ONE, variables: { file: null } }, { 0: ['variables.file'] }, [
        { name: 'huge.bin', type: 'application/octet-stream', content: Buffer.alloc(MAX_FILE_SIZE + 1) },
      ]);
      expect(status).toBe(413);
      expect(body.errors![0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
    });

    it('answers 413 PAYLOAD_TOO_LARGE for too many files', async () => {
      const files = Array.from({ length: MAX_FILES + 1 }, (_, i) => ({ name: `f${i}`, type: 'text/plain', content: Buffer.from('x') }));
      const map = Object.fromEntries(files.map((_, i) => [String(i), [`variables.files.${i}`]]));
      const { status, body } = await upload(
        {
          query: 'mutation($files: [Upload!]!) { uploadDocuments(files: $files) { sha256 } }',
          variables: { files: files.map(() => null) },
        },
        map,
        files,
      );
      expect(status).toBe(413);
      expect(body.errors![0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
    });
  });

  describe('malformed bodies', () => {
    const raw = (body: string) =>
      fetch(stack.gateway.url, {
        method: 'POST',
        headers: { 'x-api-key': API_KEYS.good, 'apollo-require-preflight': 'true', 'content-type': 'multipart/form-data; boundary=zz' },
        body,
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as { errors: Array<{ extensions: { code: string } }> } }));
    const head = (name: string) =>
      `--zz\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${JSON.stringify({ query: UPLOAD_ONE, variables: { file: null } })}\r\n` +
      `--zz\r\nContent-Disposition: form-data; name="map"\r\n\r\n{"0":["variables.file"]}\r\n` +
      `--zz\r\nContent-Disposition: form-data; name="0"; filename="${name}"\r\n\r\nabc\r\n--zz--\r\n`;

    it('a NUL in a part header is a 400, and the process lives on (busboy’s second error once crashed it)', async () => {
      const { status, body } = await raw(head('a\u0000.png'));
      expect(status).toBe(400);
      expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect((await fetch(stack.gateway.url.replace('/graphql', '/health'))).status).toBe(200);
    });

    it('a body cut short inside a field is a 400 BAD_USER_INPUT, not a 500', async () => {
      const { status, body } = await raw(head('a.png').slice(0, 80));
      expect(status).toBe(400);
      expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    });
  });
});
