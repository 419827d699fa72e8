import type { RequestHandler } from 'express';
import type { Readable } from 'node:stream';
import { processRequest, Upload, type FileUpload } from 'graphql-upload-minimal';
import { AppError } from '../platform/errors.js';

export const MAX_FILE_SIZE = 10 * 1024 * 1024;
export const MAX_FILES = 10;

/** A file of a multipart request, read in full at the edge so the size limit holds before any subgraph sees it. */
export class BufferedUpload {
  constructor(
    readonly filename: string,
    readonly mimetype: string,
    readonly content: Buffer,
  ) {}
}

async function readFile(file: FileUpload): Promise<BufferedUpload> {
  const stream = file.createReadStream() as unknown as Readable & { truncated?: boolean };
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  // busboy ends a file stream early (truncated) when it reaches maxFileSize.
  if (stream.truncated) throw new AppError('PAYLOAD_TOO_LARGE', `File ${file.filename} exceeds the ${MAX_FILE_SIZE} byte limit`);
  return new BufferedUpload(file.filename, file.mimetype, Buffer.concat(chunks));
}

/** Replaces every graphql-upload-minimal `Upload` in the operation(s) with its BufferedUpload. */
async function bufferUploads(value: unknown, read: Map<Upload, Promise<BufferedUpload>>): Promise<unknown> {
  if (value instanceof Upload) {
    if (!read.has(value)) read.set(value, value.promise.then(readFile));
    return read.get(value);
  }
  if (Array.isArray(value)) return Promise.all(value.map((item) => bufferUploads(item, read)));
  if (value && typeof value === 'object') {
    const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await bufferUploads(v, read)] as const));
    return Object.fromEntries(entries);
  }
  return value;
}

/**
 * Parses graphql-multipart-request-spec bodies (maxFileSize 10 MB, maxFiles 10) and reads every
 * file into memory (at most MAX_FILES × MAX_FILE_SIZE per request); parser failures
 * carry an HTTP status that the route's error handler turns into PAYLOAD_TOO_LARGE / BAD_USER_INPUT.
 */
export function multipartUploads(): RequestHandler {
  return async (req, res, next) => {
    // Without a preflight header Apollo's CSRF prevention refuses the request: don't read its files first.
    const preflighted = req.headers['apollo-require-preflight'] || req.headers['x-apollo-operation-name'];
    if (!req.is('multipart/form-data') || !preflighted) return next();
    try {
      const operations = await processRequest(req, res, { maxFileSize: MAX_FILE_SIZE, maxFiles: MAX_FILES });
      req.body = await bufferUploads(operations, new Map());
      next();
    } catch (error) {
      next(error);
    }
  };
}

/** Every BufferedUpload inside `value`, each with the dotted paths where it appears. */
export function findUploads(value: unknown, path: string, found = new Map<BufferedUpload, string[]>()): Map<BufferedUpload, string[]> {
  if (value instanceof BufferedUpload) found.set(value, [...(found.get(value) ?? []), path]);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) findUploads(item, `${path}.${key}`, found);
  }
  return found;
}
