import sharp from 'sharp';

/** The face's width (pixels) its crop is enlarged to before the mesh looks at it again. */
export const MESH_FACE_WIDTH = 288;

/** One view of a face for the mesh: raw RGB pixels. */
export interface MeshView {
  data: Buffer;
  info: { width: number; height: number; channels: number };
}

/**
 * Two more views of the face in `box` (x, y, width, height) of a photo, for the mesh to read its
 * mouth and eyes again (a liveness photo, vision.worker.ts): its crop (the box grown by 40 % each
 * side) enlarged so the face is MESH_FACE_WIDTH pixels wide (Lanczos; a face already that wide is
 * not resized), first with its contrast equalised locally (CLAHE: a darker or dimly lit face's
 * lips and lids stand out more), then mirrored. The mesh models take a face at 192 px: a 100–160 px
 * face in the photo they would enlarge bilinearly themselves, softer than Lanczos, and the detector
 * finds the face's box more exactly in a crop the face fills (liveness bench, tune half: genuine
 * smiles of the darker renderings passed 88 → 92 % with the crops enlarged, other rows within a
 * face). None when the crop is under 32 px.
 */
export async function meshViews(image: Uint8Array, [x, y, w, h]: readonly number[]): Promise<MeshView[]> {
  const meta = await sharp(image).metadata();
  const left = Math.max(0, Math.round(x - 0.4 * w));
  const top = Math.max(0, Math.round(y - 0.4 * h));
  const width = Math.min((meta.width ?? 0) - left, Math.round(1.8 * w));
  const height = Math.min((meta.height ?? 0) - top, Math.round(1.8 * h));
  if (width < 32 || height < 32) return [];
  const scale = Math.max(1, MESH_FACE_WIDTH / w);
  const size = { width: Math.round(width * scale), height: Math.round(height * scale) };
  const enlarged = await sharp(image)
    .extract({ left, top, width, height })
    .removeAlpha()
    .resize({ ...size, kernel: 'lanczos3' })
    .png({ compressionLevel: 0 })
    .toBuffer();
  const crop = sharp(enlarged);
  return Promise.all(
    [
      crop.clone().clahe({ width: Math.max(3, Math.round(size.width / 4)), height: Math.max(3, Math.round(size.height / 4)), maxSlope: 3 }),
      crop.clone().flop(),
    ].map((view) => view.raw().toBuffer({ resolveWithObject: true })),
  );
}
