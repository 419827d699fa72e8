import type { Request, RequestHandler } from 'express';
import type { Readable } from 'node:stream';
import {
  getNamedType,
  getOperationAST,
  isInputObjectType,
  parse,
  typeFromAST,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import { processRequest, Upload, type FileUpload } from 'graphql-upload-minimal';
import { AppError, badInput } from '../platform/errors.js';
import { FilePart, MAX_UPLOAD_BYTES, MAX_UPLOAD_FILES } from '../platform/graphql/upload.js';
import { MAX_TOKENS } from './operation-cost.js';

async function readFile(file: FileUpload): Promise<FilePart> {
  const stream = file.createReadStream() as unknown as Readable & { truncated?: boolean };
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  // busboy ends a file stream early (truncated) when it reaches maxFileSize.
  if (stream.truncated) throw new AppError('PAYLOAD_TOO_LARGE', `File ${file.filename} exceeds the ${MAX_UPLOAD_BYTES} byte limit`);
  return new FilePart(file.filename, file.mimetype, Buffer.concat(chunks));
}

/** Replaces every graphql-upload-minimal `Upload` in the operation(s) with its FilePart, read in full at the edge so the size limit holds before any subgraph sees it. */
async function bufferUploads(value: unknown, read: Map<Upload, Promise<FilePart>>): Promise<unknown> {
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

/** Whether a value of this input type can hold a file (Upload itself, a list of it, an input object with one). */
function holdsUpload(type: GraphQLNamedType, seen = new Set<string>()): boolean {
  if (type.name === 'Upload') return true;
  if (!isInputObjectType(type) || seen.has(type.name)) return false;
  seen.add(type.name);
  return Object.values(type.getFields()).some((field) => holdsUpload(getNamedType(field.type), seen));
}

/** Variables of the operation that may carry files; throws BAD_USER_INPUT when the document does not parse. */
function uploadVariables(schema: GraphQLSchema, operations: { query?: unknown; operationName?: unknown }): Set<string> {
  if (typeof operations.query !== 'string') throw badInput('operations.query must be a GraphQL document');
  let document;
  try {
    document = parse(operations.query, { maxTokens: MAX_TOKENS });
  } catch (error) {
    throw badInput((error as Error).message);
  }
  const operation = getOperationAST(document, typeof operations.operationName === 'string' ? operations.operationName : undefined);
  const names = new Set<string>();
  for (const definition of operation?.variableDefinitions ?? []) {
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (type && holdsUpload(getNamedType(type))) names.add(definition.variable.name.value);
  }
  return names;
}

/** The first variable holding a file although the operation does not declare it as an upload. */
function misplacedUpload(variables: unknown, allowed: Set<string>): string | undefined {
  if (!variables || typeof variables !== 'object') return undefined;
  return Object.entries(variables).find(([name, value]) => !allowed.has(name) && findUploadInstances(value))?.[0];
}

function findUploadInstances(value: unknown): boolean {
  if (value instanceof Upload) return true;
  return !!value && typeof value === 'object' && Object.values(value).some(findUploadInstances);
}

/**
 * busboy's own errors (a body cut short, a broken part header) carry no status, and
 * graphql-upload-minimal says 500 when it finds no field at all: all of them are the client's body.
 */
function malformed(error: Error & { status?: number }): Error {
  if (error instanceof AppError || (error.status !== undefined && error.status < 500)) return error;
  return badInput(`Malformed multipart request: ${error.message}`);
}

/**
 * graphql-upload-minimal listens `once` for its parser's errors and then destroys the parser, which
 * makes busboy emit a second error (a NUL in a part header does it): with no listener left, that
 * error crashes the process. A listener of ours stays for the parser's whole life (the first error
 * still rejects processRequest).
 */
function keepParserErrorsHandled(req: Request): void {
  const pipe = req.pipe.bind(req);
  req.pipe = <T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T => {
    destination.on('error', () => undefined);
    return pipe(destination, options);
  };
}

/**
 * A request refused before its files were read still has them on the socket, and busboy waits for
 * someone to read them: the connection would stay stuck under a keep-alive client that reuses it.
 * Drop the parser and let the rest of the body flow to nowhere so the connection can serve the next request.
 */
function discardRestOfBody(req: Request): void {
  req.unpipe();
  req.resume();
}

/**
 * Parses graphql-multipart-request-spec bodies (maxFileSize 10 MB, maxFiles 10) and reads every
 * file into memory (at most MAX_UPLOAD_FILES × MAX_UPLOAD_BYTES per request), but only for an operation
 * whose variables take files, and only files mapped to those variables: anything else is refused
 * before its files are read. Parser failures carry an HTTP status that the route's error handler
 * turns into PAYLOAD_TOO_LARGE / BAD_USER_INPUT.
 */
export function multipartUploads(schema: () => GraphQLSchema | undefined): RequestHandler {
  return async (req, res, next) => {
    // Without a preflight header Apollo's CSRF prevention refuses the request: don't read its files first.
    const preflighted = req.headers['apollo-require-preflight'] || req.headers['x-apollo-operation-name'];
    if (!req.is('multipart/form-data') || !preflighted) return next();
    try {
      keepParserErrorsHandled(req);
      const operations = await processRequest(req, res, { maxFileSize: MAX_UPLOAD_BYTES, maxFiles: MAX_UPLOAD_FILES });
      const current = schema();
      if (!current) throw new AppError('UNAVAILABLE', 'The gateway is starting');
      if (Array.isArray(operations)) throw badInput('Batched operations are not supported');
      const allowed = uploadVariables(current, operations as { query?: unknown });
      const misplaced = misplacedUpload((operations as { variables?: unknown }).variables, allowed);
      if (misplaced !== undefined || allowed.size === 0) {
        throw badInput(
          allowed.size === 0
            ? 'This operation takes no file uploads: send it as application/json'
            : `Variable $${misplaced} takes no file upload`,
        );
      }
      req.body = await bufferUploads(operations, new Map());
      next();
    } catch (error) {
      discardRestOfBody(req);
      next(malformed(error as Error));
    }
  };
}
