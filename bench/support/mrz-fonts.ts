import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';

/**
 * The monospace fonts the documents bench sets zones in. Adding one is one row: its files are
 * looked for in order (a repository path, a file of an npm package, or an absolute path) and a
 * font none of whose files is there is skipped with a note, never downloaded.
 */
export interface MonoFont {
  name: string;
  /** The Pango font description's family (and style) naming the font in its file. */
  family: string;
  files: string[];
}

export const FONTS: readonly MonoFont[] = [
  // the typeface of real zones (public domain); it, DejaVu Sans Mono and Courier Prime are the
  // MRZ glyph reader's templates, the three others are fonts it does not know
  { name: 'ocr-b', family: 'OCR B', files: ['data/fonts/OCRB.otf'] },
  {
    name: 'dejavu-mono',
    family: 'DejaVu Sans Mono',
    files: ['dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf'],
  },
  {
    name: 'dejavu-mono-bold',
    family: 'DejaVu Sans Mono Bold',
    files: ['dejavu-fonts-ttf/ttf/DejaVuSansMono-Bold.ttf'],
  },
  { name: 'roboto-mono', family: 'Roboto Mono', files: ['@expo-google-fonts/roboto-mono/400Regular/RobotoMono_400Regular.ttf'] },
  { name: 'ibm-plex-mono', family: 'IBM Plex Mono', files: ['@expo-google-fonts/ibm-plex-mono/400Regular/IBMPlexMono_400Regular.ttf'] },
  { name: 'courier-prime', family: 'Courier Prime', files: ['@expo-google-fonts/courier-prime/400Regular/CourierPrime_400Regular.ttf'] },
];

/** Sizes in pixels per pixel of font size (em). */
export interface FontMetrics {
  /** Height of a capital. */
  cap: number;
  /** Horizontal pitch: every glyph's advance. */
  advance: number;
  /** Baseline to baseline of two lines without extra spacing. */
  lineHeight: number;
}

export interface LoadedFont extends MonoFont {
  file: string;
  metrics: FontMetrics;
}

/** Resolved from the project (the working directory), as the CLIs find their files. */
const requireFromProject = createRequire(path.resolve('package.json'));

function findFile(font: MonoFont): string | null {
  for (const file of font.files) {
    if (existsSync(path.resolve(file))) return path.resolve(file);
    try {
      return requireFromProject.resolve(file);
    } catch {
      // not installed: try the next
    }
  }
  return null;
}

const MEASURE_PX = 100;

/** The ink extent of one text (libvips crops the rendering to its ink); `<` escaped for Pango's markup. */
async function inkSize(text: string, font: { family: string; file: string }): Promise<{ width: number; height: number; data: Buffer }> {
  const markup = text.replace(/</g, '&lt;');
  const { data, info } = await sharp({ text: { text: markup, fontfile: font.file, font: `${font.family} ${MEASURE_PX}px`, rgba: true } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

/** The advance of a glyph: the width of 20 of them less the width of 10, over 10 (side bearings cancel). */
async function advanceOf(glyph: string, font: { family: string; file: string }): Promise<number> {
  const [ten, twenty] = await Promise.all([inkSize(glyph.repeat(10), font), inkSize(glyph.repeat(20), font)]);
  return (twenty.width - ten.width) / 10;
}

/**
 * A font's metrics, or why it can't be used: Pango falls back to another font silently when the
 * family is not the file's, so the rendering must differ from an unknown family's; and every
 * glyph of the zone's alphabet must have one advance.
 */
async function measure(family: string, file: string): Promise<FontMetrics | string> {
  const font = { family, file };
  const sample = 'P<UTO0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const [own, fallback] = await Promise.all([inkSize(sample, font), inkSize(sample, { family: 'No Such Font Family', file })]);
  if (own.width === fallback.width && own.data.equals(fallback.data)) return `Pango does not know the family "${family}" in ${file}`;
  const advances = await Promise.all(['<', 'I', 'W', '1', '0', 'M'].map((glyph) => advanceOf(glyph, font)));
  if (Math.max(...advances) - Math.min(...advances) > 0.5) return `not monospaced (advances ${advances.join(', ')} px at ${MEASURE_PX} px)`;
  const [one, two] = await Promise.all([inkSize('H', font), inkSize('H\nH', font)]);
  return { cap: one.height / MEASURE_PX, advance: advances[0] / MEASURE_PX, lineHeight: (two.height - one.height) / MEASURE_PX };
}

/** The fonts of `FONTS` (those `names` lists, when given) that are installed and usable; a note for each of the others. */
export async function loadFonts(names?: string[]): Promise<{ fonts: LoadedFont[]; notes: string[] }> {
  const fonts: LoadedFont[] = [];
  const notes: string[] = [];
  for (const font of FONTS.filter((f) => !names || names.includes(f.name))) {
    const file = findFile(font);
    if (!file) {
      notes.push(`font ${font.name} skipped: none of ${font.files.join(', ')} is installed`);
      continue;
    }
    const metrics = await measure(font.family, file);
    if (typeof metrics === 'string') notes.push(`font ${font.name} skipped: ${metrics}`);
    else fonts.push({ ...font, file, metrics });
  }
  return { fonts, notes };
}
