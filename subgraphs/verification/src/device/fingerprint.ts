import { createHash } from 'node:crypto';
import { UAParser } from 'ua-parser-js';
import { isBot } from 'ua-parser-js/bot-detection';
import { capScore, riskLevelOf, type RiskLevel } from '../ip/ip-risk.js';

/**
 * Device intelligence as pure functions: the stable device id, the emulator/rooted/geo signals
 * and the documented risk weights. The service adds what needs the database (first seen, accounts
 * on the device, links to flagged users) and the IP analysis.
 */

export const FINGERPRINT_MEMBERS = ['userAgent', 'platform', 'screenResolution', 'timezone', 'language', 'webgl', 'canvas'] as const;
export type Fingerprint = Partial<Record<(typeof FINGERPRINT_MEMBERS)[number], string | null>>;

export interface ParsedDevice {
  browser: string | null;
  os: string | null;
  deviceType: string | null;
  vendor: string | null;
  model: string | null;
}

export function parseUserAgent(userAgent: string | null | undefined): ParsedDevice {
  const r = new UAParser(userAgent ?? '').getResult();
  return {
    browser: r.browser.name ?? null,
    os: r.os.name ?? null,
    // ua-parser leaves desktop devices untyped
    deviceType: r.device.type ?? (userAgent ? 'desktop' : null),
    vendor: r.device.vendor ?? null,
    model: r.device.model ?? null,
  };
}

const RESOLUTION = /^(\d{2,5})\s*[x×]\s*(\d{2,5})(?:\s*[x×]\s*\d{1,2})?$/i;

/** One message per invalid member (422); an empty fingerprint cannot identify a device. */
export function validateFingerprint(fp: Fingerprint): string[] {
  const errors: string[] = [];
  const present = FINGERPRINT_MEMBERS.filter((m) => typeof fp[m] === 'string' && fp[m]!.trim() !== '');
  if (!present.length) errors.push(`fingerprint must contain at least one of: ${FINGERPRINT_MEMBERS.join(', ')}`);
  const limits: Record<string, number> = {
    userAgent: 1024,
    platform: 128,
    screenResolution: 32,
    timezone: 64,
    language: 128,
    webgl: 2048,
    canvas: 2048,
  };
  for (const m of present) if (fp[m]!.length > limits[m]) errors.push(`fingerprint.${m} must be at most ${limits[m]} characters`);
  if (fp.screenResolution && !RESOLUTION.test(fp.screenResolution.trim()))
    errors.push('fingerprint.screenResolution must look like 1920x1080');
  if (fp.timezone && !isTimeZone(fp.timezone.trim())) errors.push('fingerprint.timezone must be an IANA time zone (e.g. Africa/Lagos)');
  if (fp.language && !languageTags(fp.language)) errors.push('fingerprint.language must be a BCP 47 language tag (e.g. fr-SN)');
  return errors;
}

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** `fr-SN` or an Accept-Language list (`fr-SN,fr;q=0.9,en;q=0.8`) → canonical tags; null when invalid. */
export function languageTags(text: string): string[] | null {
  const tags = text
    .split(',')
    .map((t) => t.split(';')[0].trim())
    .filter(Boolean);
  if (!tags.length) return null;
  try {
    return Intl.getCanonicalLocales(tags);
  } catch {
    return null;
  }
}

/**
 * `dfp_` + 32 hex of SHA-256 over the organization and the fingerprint's stable components: browser
 * and OS families and device model (not their versions, which change with every update), platform,
 * screen size (orientation-independent), time zone, primary language, WebGL and canvas hashes.
 * The IP is not part of it (it changes with networks). Per organization, so ids cannot be linked
 * across customers.
 */
export function deviceIdOf(organizationId: string, fp: Fingerprint): string {
  const ua = parseUserAgent(fp.userAgent);
  const resolution = RESOLUTION.exec(fp.screenResolution?.trim() ?? '');
  const dims = resolution ? [Number(resolution[1]), Number(resolution[2])].sort((a, b) => b - a).join('x') : null;
  const stable = {
    browser: ua.browser,
    os: ua.os,
    vendor: ua.vendor,
    model: ua.model,
    // without a user agent nothing else identifies the browser family
    ua: fp.userAgent && !ua.browser && !ua.os ? fp.userAgent.trim() : null,
    platform: fp.platform?.trim().toLowerCase() || null,
    screen: dims,
    timezone: fp.timezone?.trim() || null,
    language: fp.language ? (languageTags(fp.language)?.[0] ?? null) : null,
    webgl: fp.webgl?.trim() || null,
    canvas: fp.canvas?.trim() || null,
  };
  const digest = createHash('sha256').update(organizationId).update('\0').update(JSON.stringify(stable)).digest('hex');
  return `dfp_${digest.slice(0, 32)}`;
}

type Tell = [RegExp, string];

const UA_EMULATOR: Tell[] = [
  [/Android SDK built for/i, 'user agent names an Android SDK emulator build'],
  [/\bsdk_gphone|\bgphone_x86|\bsdk_google|\bgoogle_sdk\b/i, 'user agent names an Android emulator system image (sdk_gphone…)'],
  [/\b(generic_x86(_64)?|generic_arm64|vbox86p|vbox86tp)\b/i, 'user agent names a generic virtual device'],
  [/\bEmulator\b/i, 'user agent says Emulator'],
  [/Genymotion|BlueStacks|\bMEmu\b|NoxPlayer|LDPlayer/i, 'user agent names an Android emulator product'],
];
const WEBGL_EMULATOR: Tell[] = [
  [/SwiftShader/i, 'WebGL renderer is SwiftShader (software GPU of emulators and headless browsers)'],
  [/Android Emulator/i, 'WebGL renderer is the Android Emulator GPU'],
  [/llvmpipe|softpipe|Mesa OffScreen/i, 'WebGL renderer is a software rasteriser (llvmpipe)'],
  [/VirtualBox|VMware|Parallels|QEMU|virgl|VirtIO/i, 'WebGL renderer is a virtual machine GPU'],
  [/Microsoft Basic Render Driver/i, 'WebGL renderer is the Windows basic render driver (no GPU, typical of VMs)'],
  [/BlueStacks|Genymotion/i, 'WebGL renderer names an Android emulator product'],
];
const ROOTED: Tell[] = [
  [/\b(lineage|LineageOS|cyanogen(mod)?)\b/i, 'custom ROM named in the user agent'],
  [/\b(Magisk|SuperSU|KingRoot|Xposed)\b/i, 'root tool named in the user agent'],
  [/\b(test-keys|userdebug)\b/i, 'debug/test-keys build named in the user agent'],
];

function tells(text: string | null | undefined, list: Tell[]): string[] {
  return text ? list.filter(([re]) => re.test(text)).map(([, why]) => why) : [];
}

/**
 * Emulator, virtual machine or automated browser: user-agent and WebGL renderer tells, an Android
 * user agent on an x86 platform (phones are ARM), a mobile user agent on a desktop platform.
 */
export function detectEmulator(fp: Fingerprint): string[] {
  const reasons = [...tells(fp.userAgent, UA_EMULATOR), ...tells(fp.webgl, WEBGL_EMULATOR)];
  const ua = parseUserAgent(fp.userAgent);
  const platform = fp.platform?.trim() ?? '';
  if (ua.os === 'Android' && /x86|i[3-6]86|amd64|Win32|Win64|MacIntel/i.test(platform))
    reasons.push(`Android user agent on an x86/desktop platform (${platform})`);
  if (ua.os === 'iOS' && platform && !/^(iPhone|iPad|iPod|MacIntel)/i.test(platform))
    reasons.push(`iOS user agent on platform ${platform}`);
  if (fp.userAgent && (/HeadlessChrome|PhantomJS|SlimerJS/i.test(fp.userAgent) || isBot(fp.userAgent)))
    reasons.push('automated or headless browser');
  return reasons;
}

/** Rooted/jailbroken: only what a browser fingerprint can show (custom-ROM and root-tool markers). */
export function detectRooted(fp: Fingerprint): string[] {
  return [...tells(fp.userAgent, ROOTED), ...tells(fp.platform, ROOTED)];
}

/** Languages of (mostly African) countries beyond CLDR's one "likely" language per country. */
const COUNTRY_LANGUAGES: Record<string, string[]> = {
  DZ: ['ar', 'fr', 'kab', 'ber', 'zgh'],
  AO: ['pt', 'umb', 'kmb', 'kg'],
  BJ: ['fr', 'fon', 'yo'],
  BW: ['en', 'tn'],
  BF: ['fr', 'mos', 'dyu', 'ff'],
  BI: ['rn', 'fr', 'sw'],
  CV: ['pt', 'kea'],
  CM: ['fr', 'en', 'ff'],
  CF: ['fr', 'sg'],
  TD: ['fr', 'ar'],
  KM: ['ar', 'fr', 'zdj'],
  CD: ['fr', 'ln', 'sw', 'kg', 'lu'],
  CG: ['fr', 'ln', 'kg'],
  CI: ['fr', 'dyu', 'bci'],
  DJ: ['fr', 'ar', 'so', 'aa'],
  EG: ['ar'],
  GQ: ['es', 'fr', 'pt'],
  ER: ['ti', 'ar'],
  SZ: ['ss'],
  ET: ['am', 'om', 'ti', 'so'],
  GA: ['fr'],
  GM: ['mnk', 'wo', 'ff'],
  GH: ['ak', 'ee', 'gaa', 'ha'],
  GN: ['fr', 'ff', 'mnk', 'sus'],
  GW: ['pt', 'ff'],
  KE: ['sw', 'ki', 'luo'],
  LS: ['st'],
  LR: [],
  LY: ['ar'],
  MG: ['mg', 'fr'],
  MW: ['ny'],
  ML: ['fr', 'bm', 'ff'],
  MR: ['ar', 'fr', 'ff', 'wo'],
  MU: ['fr', 'mfe'],
  MA: ['ar', 'fr', 'zgh', 'ber', 'tzm', 'shi'],
  MZ: ['pt'],
  NA: ['af', 'de'],
  NE: ['fr', 'ha', 'dje'],
  NG: ['ha', 'yo', 'ig', 'ff'],
  RW: ['rw', 'fr', 'sw'],
  ST: ['pt'],
  SN: ['fr', 'wo', 'ff'],
  SC: ['fr', 'crs'],
  SL: ['kri'],
  SO: ['so', 'ar'],
  ZA: ['af', 'zu', 'xh', 'st', 'tn', 'ts', 've', 'nr', 'nso', 'ss'],
  SS: ['ar'],
  SD: ['ar'],
  TZ: ['sw'],
  TG: ['fr', 'ee'],
  TN: ['ar', 'fr'],
  UG: ['sw', 'lg'],
  ZM: ['bem', 'ny'],
  ZW: ['sn', 'nd'],
  EH: ['ar', 'es'],
  RE: ['fr'],
  YT: ['fr'],
};

function likelyLanguage(country: string): string | null {
  try {
    return new Intl.Locale(`und-${country}`).maximize().language;
  } catch {
    return null;
  }
}

function likelyRegion(language: string): string | null {
  try {
    return new Intl.Locale(language).maximize().region ?? null;
  } catch {
    return null;
  }
}

/** Minutes east of UTC of a time zone at `at`. */
export function utcOffsetMinutes(timeZone: string, at = new Date()): number | null {
  try {
    const name =
      new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(at).find((p) => p.type === 'timeZoneName')
        ?.value ?? '';
    const m = /GMT(?:([+-])(\d{2}):(\d{2}))?/.exec(name);
    if (!m) return null;
    return m[1] ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  } catch {
    return null;
  }
}

const formatOffset = (min: number) =>
  `UTC${min < 0 ? '-' : '+'}${String(Math.floor(Math.abs(min) / 60)).padStart(2, '0')}:${String(Math.abs(min) % 60).padStart(2, '0')}`;

/** Tolerance between the device's time zone and the IP location's: neighbouring zones are not a mismatch. */
export const TIMEZONE_TOLERANCE_MINUTES = 60;

/**
 * Geo-consistency of the device with its IP location: the device time zone's UTC offset differs
 * from the IP location's by more than an hour, or the device language is not one used in the IP's
 * country (English, the default of most browsers, is never a mismatch).
 */
export function detectGeoMismatch(
  fp: Fingerprint,
  ipLocation: { country: string | null; timezone: string | null },
  at = new Date(),
): string[] {
  const reasons: string[] = [];
  const tz = fp.timezone?.trim();
  if (tz && ipLocation.timezone && tz !== ipLocation.timezone) {
    const device = utcOffsetMinutes(tz, at);
    const ip = utcOffsetMinutes(ipLocation.timezone, at);
    if (device !== null && ip !== null && Math.abs(device - ip) > TIMEZONE_TOLERANCE_MINUTES) {
      reasons.push(
        `device time zone ${tz} (${formatOffset(device)}) is far from the IP location's ${ipLocation.timezone} (${formatOffset(ip)})`,
      );
    }
  }
  const country = ipLocation.country;
  const tag = fp.language ? languageTags(fp.language)?.[0] : null;
  if (tag && country) {
    const locale = new Intl.Locale(tag);
    const lang = locale.language;
    const spoken = new Set([...(COUNTRY_LANGUAGES[country] ?? []), likelyLanguage(country)]);
    const consistent = lang === 'en' || spoken.has(lang) || locale.region === country || likelyRegion(lang) === country;
    if (!consistent) reasons.push(`device language ${tag} is not one used in the IP's country (${country})`);
  }
  return reasons;
}

/** Documented weights of the device risk score: each signal adds its weight; the sum is capped at 1. */
export const DEVICE_WEIGHTS = {
  knownFraudDevice: 0.6,
  emulator: 0.4,
  rooted: 0.25,
  vpn: 0.2,
  geoMismatch: 0.15,
  /** per account beyond the first, at most `multipleAccountsMax` */
  multipleAccounts: 0.1,
  multipleAccountsMax: 0.3,
  /** IP in a datacenter range (when not already counted as VPN/proxy/Tor) */
  datacenterIp: 0.1,
  /** IP seen on a flagged user's records */
  knownAbuserIp: 0.2,
} as const;

export interface DeviceSignals {
  emulator: boolean;
  rooted: boolean;
  vpn: boolean;
  knownFraudDevice: boolean;
  geoMismatch: boolean;
  multipleAccounts: number;
  deviceAge: string;
}

export interface RiskReason {
  signal: string;
  weight: number;
  detail: string;
}

export function scoreDevice(
  signals: DeviceSignals,
  ip: { isDatacenter: boolean; isKnownAbuser: boolean } | null,
  details: Partial<Record<string, string>> = {},
): { riskScore: number; riskLevel: RiskLevel; reasons: RiskReason[] } {
  const reasons: RiskReason[] = [];
  const add = (signal: string, weight: number, detail: string) => reasons.push({ signal, weight, detail: details[signal] ?? detail });
  const w = DEVICE_WEIGHTS;
  if (signals.knownFraudDevice)
    add('knownFraudDevice', w.knownFraudDevice, 'device seen for a user with a rejected verification or a flagged AML screening');
  if (signals.emulator) add('emulator', w.emulator, 'emulator, virtual machine or automated browser');
  if (signals.rooted) add('rooted', w.rooted, 'rooted or custom-ROM device');
  if (signals.vpn) add('vpn', w.vpn, 'IP is a VPN, proxy or Tor exit');
  if (signals.geoMismatch) add('geoMismatch', w.geoMismatch, 'time zone or language inconsistent with the IP location');
  if (signals.multipleAccounts > 1) {
    add(
      'multipleAccounts',
      Math.min(w.multipleAccountsMax, Math.round(w.multipleAccounts * (signals.multipleAccounts - 1) * 100) / 100),
      `${signals.multipleAccounts} accounts seen on this device`,
    );
  }
  if (ip?.isDatacenter && !signals.vpn) add('datacenterIp', w.datacenterIp, 'IP in a datacenter range');
  if (ip?.isKnownAbuser) add('knownAbuserIp', w.knownAbuserIp, "IP seen on a flagged user's records");
  const riskScore = capScore(reasons.map((r) => r.weight));
  return { riskScore, riskLevel: riskLevelOf(riskScore), reasons };
}

/** `0 days`, `1 day`, `44 days` (whole days since first seen). */
export function formatDeviceAge(firstSeen: Date, now = new Date()): string {
  const days = Math.max(0, Math.floor((now.getTime() - firstSeen.getTime()) / 86_400_000));
  return `${days} ${days === 1 ? 'day' : 'days'}`;
}
