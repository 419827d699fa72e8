import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { AppError } from '../../../../platform/errors.js';
import { MAX_UPLOAD_BYTES } from '../../../../platform/graphql/upload.js';

export const IMAGE_KINDS = ['jpeg', 'png', 'webp', 'heic'] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];

const KIND_OF_MIME: Record<string, ImageKind> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/heif': 'heic',
};

/**
 * What an image really is, from its magic bytes (never its name or declared type): 415 for
 * anything but JPEG, PNG, WebP and HEIC, 413 over the size limit. `what` names the field.
 */
export async function sniffImage(bytes: Uint8Array, what: string): Promise<ImageKind> {
  if (bytes.byteLength > MAX_UPLOAD_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', `${what} exceeds the ${MAX_UPLOAD_BYTES} byte limit`);
  const type = await fileTypeFromBuffer(bytes);
  const kind = type ? KIND_OF_MIME[type.mime] : undefined;
  if (!kind) throw new AppError('UNSUPPORTED_MEDIA_TYPE', `${what} must be a JPEG, PNG, WebP or HEIC image`);
  return kind;
}

/**
 * The image as a JPEG the models and the storage share (HEIC decoded with libheif; EXIF
 * orientation applied); a corrupt image is the client's mistake (400 naming the field).
 */
export async function normalizeImage(bytes: Uint8Array, kind: ImageKind, what: string): Promise<Buffer> {
  try {
    if (kind === 'heic') {
      // libheif (a 16 MB WebAssembly heap, compiled at import) is loaded by the first HEIC, not by every process
      const { default: decodeHeic } = await import('heic-decode');
      const { width, height, data } = await decodeHeic({ buffer: bytes });
      return await sharp(Buffer.from(data), { raw: { width, height, channels: 4 } })
        .jpeg({ quality: 92 })
        .toBuffer();
    }
    return await sharp(bytes).rotate().jpeg({ quality: 92 }).toBuffer();
  } catch {
    throw new AppError('BAD_USER_INPUT', `${what} is not a readable image`);
  }
}

/** Sniffed and normalized in one step. */
export async function readImage(bytes: Uint8Array, what: string): Promise<{ kind: ImageKind; jpeg: Buffer }> {
  const kind = await sniffImage(bytes, what);
  return { kind, jpeg: await normalizeImage(bytes, kind, what) };
}

/** Base64 text (a `data:image/…;base64,` prefix allowed; whitespace ignored). */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * An image sent as base64 text (`selfieBase64`…): decoded, sniffed and normalized like an upload;
 * text that is not base64 is a 400 naming the field. A declared MIME type is not trusted: the
 * bytes say what the image is.
 */
export async function readBase64Image(text: string, what: string): Promise<{ kind: ImageKind; jpeg: Buffer }> {
  const payload = text.replace(/^data:[\w.+/-]*;base64,/, '').replace(/\s/g, '');
  if (!payload || payload.length % 4 === 1 || !BASE64.test(payload)) throw new AppError('BAD_USER_INPUT', `${what} must be a base64 image`);
  if ((payload.length * 3) / 4 > MAX_UPLOAD_BYTES + 3) {
    throw new AppError('PAYLOAD_TOO_LARGE', `${what} exceeds the ${MAX_UPLOAD_BYTES} byte limit`);
  }
  return readImage(Buffer.from(payload, 'base64'), what);
}
