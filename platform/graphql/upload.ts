import type { Readable } from 'node:stream';
import { GraphQLUpload, type FileUpload } from 'graphql-upload-minimal';
import { AppError } from '../errors.js';

/** The `Upload` scalar (graphql-multipart-request-spec): the gateway forwards multipart requests to the subgraph. */
export const Upload = GraphQLUpload;
export type { FileUpload };

/** Files are at most this big (the gateway and the REST adapter refuse larger ones first, as 413). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Files of one request at most. */
export const MAX_UPLOAD_FILES = 10;

/** A file read in full, on its way to a GraphQL server as a part of a multipart request. */
export class FilePart {
  constructor(
    readonly filename: string,
    readonly mimeType: string,
    readonly bytes: Buffer,
  ) {}
}

/** Every FilePart inside `value`, each with the dotted paths where it appears (`variables.input.frontImage`). */
export function findFileParts(value: unknown, path: string, found = new Map<FilePart, string[]>()): Map<FilePart, string[]> {
  if (value instanceof FilePart) found.set(value, [...(found.get(value) ?? []), path]);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) findFileParts(item, `${path}.${key}`, found);
  }
  return found;
}

/** Whether `value` holds a file anywhere (what `findFileParts` finds, without collecting paths). */
export function hasFileParts(value: unknown): boolean {
  if (value instanceof FilePart) return true;
  if (!value || typeof value !== 'object') return false;
  for (const item of Array.isArray(value) ? value : Object.values(value)) if (hasFileParts(item)) return true;
  return false;
}

/** A copy with every file replaced by null, as the multipart spec's `operations` wants. */
function withoutFileParts(value: unknown): unknown {
  if (value instanceof FilePart) return null;
  if (Array.isArray(value)) return value.map(withoutFileParts);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutFileParts(v)]));
  return value;
}

/** An operation whose variables hold FileParts as a graphql-multipart-request-spec form: `operations`, `map`, one part per file. */
export function multipartOperation(operation: { query?: string; operationName?: string | null; variables?: unknown }): FormData {
  const { query, operationName, variables } = operation;
  const files = [...findFileParts(variables ?? {}, 'variables')];
  const form = new FormData();
  form.append('operations', JSON.stringify({ query, operationName, variables: withoutFileParts(variables) }));
  form.append('map', JSON.stringify(Object.fromEntries(files.map(([, paths], i) => [String(i), paths]))));
  files.forEach(([file], i) => form.append(String(i), new Blob([new Uint8Array(file.bytes)], { type: file.mimeType }), file.filename));
  return form;
}

/** An upload's bytes, read in full (413 beyond the limit); `what` names the argument. */
export async function readUpload(upload: Promise<FileUpload> | FileUpload, what: string): Promise<FilePart> {
  const file = await upload;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of file.createReadStream() as unknown as Readable) {
    size += (chunk as Buffer).length;
    if (size > MAX_UPLOAD_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', `${what} exceeds the ${MAX_UPLOAD_BYTES} byte limit`);
    chunks.push(chunk as Buffer);
  }
  return new FilePart(file.filename, file.mimetype, Buffer.concat(chunks));
}
