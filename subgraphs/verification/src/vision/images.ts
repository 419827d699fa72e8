import { fileTypeFromBuffer } from 'file-type';
import decodeHeic from 'heic-decode';
import sharp from 'sharp';
import { AppError } from '../../../../platform/errors.js';

/** Uploads and base64 images are at most this big (the gateway's file limit). */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

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
  if (bytes.byteLength > MAX_IMAGE_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', `${what} exceeds the ${MAX_IMAGE_BYTES} byte limit`);
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
