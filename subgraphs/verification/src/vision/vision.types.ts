import type { AddressReading } from '../address/address-reader.js';
import type { DocumentText } from '../document/document-text.js';

/** What the offline models see in an image (vision.worker.ts computes it, out of the API process). */

export interface FaceAnalysis {
  /** Where the face is: x, y, width, height in pixels. */
  box: [number, number, number, number];
  /** The detector's confidence, 0–1. */
  score: number;
  /** Face description (Human's faceres, 1024 numbers): compare two with `faceSimilarity`. */
  embedding: number[];
  /** Head pose in radians: yaw (negative = turned to the image's left), pitch (negative = up), roll. */
  yaw: number;
  pitch: number;
  roll: number;
  /** The mesh's own reading of where the face looks. */
  facing: 'left' | 'center' | 'right';
  /** Eye openness (lid gap / eye height; below ≈ 0.2 the eye is closed), left and right as in the image. */
  eyesOpen: { left: number; right: number };
  /**
   * The eyes' aspect ratio: the lids' gap at three points over the eye's width, both eyes, from the
   * mesh (averaged over its passes, vision.worker.ts): ≈ 0.25–0.35 open, below ≈ 0.12 closed. Null
   * (or absent) without a full mesh.
   */
  eyeAspect?: number | null;
  /** How open the mouth is, 0–100. */
  mouthOpen: number;
  /**
   * The mouth's shape, measured along the eyes' line (so a rolled head reads the same): `width` the
   * distance of its corners over the face's width at the cheeks; `cornerLift` how far its corners
   * sit above the middle of the lips, over the face's height (forehead to chin). A smile widens
   * the mouth and raises its corners. For a photo of one face, the mean over three looks at it
   * (the photo, and its face's crop enlarged to a 288 px face, mesh-views.ts, with contrast
   * equalised, and mirrored). Null when the mesh found no full face.
   */
  mouth: { width: number; cornerLift: number } | null;
  /** A few points of the face mesh, in pixels (renderings and skin sampling in the benches); null without a full mesh. */
  landmarks: FaceLandmarks | null;
  /** Emotion scores, 0–1 (`happy` is a smile). */
  emotion: Record<string, number>;
  /** Anti-spoofing: how likely the face is a real one (not a print or a screen), 0–1; null when not measured. */
  real: number | null;
  /** Liveness model's score, 0–1; null when not measured. */
  live: number | null;
}

/** Points of the face mesh: left and right as in the image. */
export interface FaceLandmarks {
  mouthLeft: Point2;
  mouthRight: Point2;
  upperLip: Point2;
  lowerLip: Point2;
  /** Each eye: its two corners, upper and lower lid (middle). */
  leftEye: { outer: Point2; inner: Point2; upper: Point2; lower: Point2 };
  rightEye: { outer: Point2; inner: Point2; upper: Point2; lower: Point2 };
  leftCheek: Point2;
  rightCheek: Point2;
  forehead: Point2;
  chin: Point2;
}

export type Point2 = [x: number, y: number];

export interface ImageFacts {
  width: number;
  height: number;
  /** Variance of the Laplacian on a fixed-size grey crop: low = blurred (below ≈ 100 is soft). */
  sharpness: number;
  /** Mean brightness, 0–255. */
  brightness: number;
}

export interface VisionAnalysis {
  image: ImageFacts;
  faces: FaceAnalysis[];
}

/**
 * What a vision worker process does (vision.worker.ts), each operation's request and result: face
 * analysis; a document image's text and machine-readable zone (document/document-text.ts); a proof
 * of address read with the English and French models (address/address-reader.ts).
 */
export interface VisionOperations {
  /** `expression`: the face's mouth and eyes measured again in two more views of it (liveness challenges; ≈ 13 % more time). */
  analyze: { request: { image: Uint8Array; expression: boolean }; result: VisionAnalysis };
  /** `today`: the zone's two-digit years are read as the century around it puts them. */
  readDocumentText: { request: { image: Buffer; today: Date }; result: DocumentText };
  readAddress: { request: { image: Buffer }; result: AddressReading };
}
export type VisionOperation = keyof VisionOperations;

/** Messages between the pool and a worker (a Buffer arrives a Buffer, a Date a Date: the channel's serialization is 'advanced'). */
export type VisionRequest = { [Op in VisionOperation]: { id: number; op: Op } & VisionOperations[Op]['request'] }[VisionOperation];
export type VisionResponse =
  { id: number; ok: true; result: VisionOperations[VisionOperation]['result'] } | { id: number; ok: false; error: string };
