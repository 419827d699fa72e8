/**
 * The organization's colours as CSS custom properties, each made readable (WCAG 2.2 AA): text on
 * the primary colour is white or near-black, whichever contrasts more; the primary colour used as
 * text or as a button on the white page is darkened until it reaches 4.5:1; the accent (focus
 * rings, the progress bar) until it reaches 3:1 against the page, as non-text contrast asks.
 */
export interface Branding {
  logoUrl?: string | null;
  primaryColor?: string | null;
  accentColor?: string | null;
}

export const DEFAULT_PRIMARY = '#1d4ed8';
export const DEFAULT_ACCENT = '#0f766e';
export const PAGE = '#ffffff';
export const DARK_TEXT = '#111418';
export const LIGHT_TEXT = '#ffffff';

type Rgb = [number, number, number];

/** `#rgb` or `#rrggbb` (other CSS colour syntaxes are not taken from a flow). */
export function parseHex(value: string | null | undefined): Rgb | null {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value?.trim() ?? '');
  if (!match) return null;
  const hex = match[1]!.length === 3 ? [...match[1]!].map((c) => c + c).join('') : match[1]!;
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
}

const toHex = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** WCAG relative luminance. */
export function luminance([r, g, b]: Rgb): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrast(a: string, b: string): number {
  const [la, lb] = [luminance(parseHex(a)!), luminance(parseHex(b)!)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** The colour moved toward black in small steps until it contrasts `ratio` with `against` (a light background). */
export function darkenUntil(color: string, against: string, ratio: number): string {
  let rgb = parseHex(color)!;
  for (let i = 0; i < 100 && contrast(toHex(rgb), against) < ratio; i++) rgb = rgb.map((c) => c * 0.95) as Rgb;
  return toHex(rgb);
}

/** White or near-black, whichever is more readable on `background`. */
export const textOn = (background: string): string =>
  contrast(LIGHT_TEXT, background) >= contrast(DARK_TEXT, background) ? LIGHT_TEXT : DARK_TEXT;

export interface Palette {
  /** Buttons and links on the page (at least 4.5:1 against it). */
  primary: string;
  /** Text on `primary` (at least 4.5:1 against it). */
  onPrimary: string;
  /** Focus rings and the progress bar (at least 3:1 against the page). */
  accent: string;
}

export function palette(branding: Branding | null | undefined): Palette {
  const given = parseHex(branding?.primaryColor) ? branding!.primaryColor!.trim().toLowerCase() : DEFAULT_PRIMARY;
  const accent = parseHex(branding?.accentColor) ? branding!.accentColor!.trim().toLowerCase() : DEFAULT_ACCENT;
  // a button's label must read on it, and the same colour is a link's on the page: dark enough for both
  const primary = darkenUntil(given.length === 4 ? toHex(parseHex(given)!) : given, PAGE, 4.5);
  return { primary, onPrimary: textOn(primary), accent: darkenUntil(accent.length === 4 ? toHex(parseHex(accent)!) : accent, PAGE, 3) };
}

/** Sets the palette on the document's root element (CSSOM, which the page's style-src allows). */
export function applyBranding(branding: Branding | null | undefined, root: HTMLElement = document.documentElement): Palette {
  const colours = palette(branding);
  root.style.setProperty('--brand', colours.primary);
  root.style.setProperty('--on-brand', colours.onPrimary);
  root.style.setProperty('--accent', colours.accent);
  return colours;
}

/** A logo URL the page may show: https only (the page's img-src), else none. */
export function logoUrl(branding: Branding | null | undefined): string | null {
  try {
    const url = new URL(branding?.logoUrl ?? '');
    return url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
