import http from 'node:http';
import https from 'node:https';
import { AppError, invalid } from '../../../../platform/errors.js';
import { pinnedLookup, resolveTarget } from '../../../../platform/delivery/target.js';
import { MAX_UPLOAD_BYTES } from '../../../../platform/graphql/upload.js';

export interface FetchLimits {
  /** The whole fetch (lookup, connection, the complete body) must fit in it. */
  timeoutMs: number;
  /** Private and loopback targets (tests' local servers) only when allowed, as for webhooks. */
  allowPrivateTargets: boolean;
  maxBytes?: number;
}

/**
 * Downloads a document from the URL a client gave (Form B `documentUrl`), as webhooks reach their
 * receivers: the host is resolved and checked against the private ranges once, and the connection
 * is pinned to that address (a DNS answer that changes in between cannot point it inside). No
 * redirect is followed (its target would escape the check); at most `maxBytes` are read and the
 * whole fetch has `timeoutMs`. Every failure is the client's, named under `what`.
 */
export async function fetchDocument(url: string, limits: FetchLimits, what = 'documentUrl'): Promise<Buffer> {
  const maxBytes = limits.maxBytes ?? MAX_UPLOAD_BYTES;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid(`${what} must be a valid URL`);
  }
  if (!['http:', 'https:'].includes(parsed.protocol)) throw invalid(`${what} must be an http or https URL`);
  if (parsed.username || parsed.password) throw invalid(`${what} must not carry credentials`);
  const target = await resolveTarget(parsed.href, limits.allowPrivateTargets, what).catch((err: Error) => {
    throw invalid(/private or loopback/.test(err.message) ? err.message : `${what}: its host could not be resolved`);
  });
  const client = parsed.protocol === 'https:' ? https : http;
  return new Promise<Buffer>((resolve, reject) => {
    const fail = (error: AppError) => {
      req.destroy();
      reject(error);
    };
    const req = client.get(
      target.url,
      {
        lookup: pinnedLookup(target),
        headers: { accept: 'image/*', 'user-agent': 'afri-platform-documents/1' },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status < 200 || status >= 300) {
          res.resume();
          return fail(
            invalid(
              `${what} answered HTTP ${status}${status >= 300 && status < 400 ? ' (redirects are not followed: give the final URL)' : ''}`,
            ),
          );
        }
        const tooLarge = () => fail(new AppError('PAYLOAD_TOO_LARGE', `${what}: the document exceeds the ${maxBytes} byte limit`));
        if (Number(res.headers['content-length'] ?? 0) > maxBytes) return tooLarge();
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) return tooLarge();
          chunks.push(chunk);
        });
        res.on('end', () => resolve(Buffer.concat(chunks)));
        res.on('error', () => fail(invalid(`${what}: the download was cut off`)));
      },
    );
    // one deadline for the whole download (a socket's idle timeout would let a server trickling bytes keep it forever)
    const deadline = setTimeout(() => fail(invalid(`${what}: no complete answer within ${limits.timeoutMs} ms`)), limits.timeoutMs);
    req.on('close', () => clearTimeout(deadline));
    req.on('error', (err: NodeJS.ErrnoException) => reject(invalid(`${what} could not be fetched (${err.code ?? 'connection failed'})`)));
  });
}
