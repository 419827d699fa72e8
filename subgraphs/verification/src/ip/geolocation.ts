import type { Lookup } from 'geoip-lite';

/** Offline geolocation from geoip-lite's bundled database (GeoLite2 derived; no network access). */
export interface Geolocation {
  country: string | null;
  countryName: string | null;
  region: string | null;
  city: string | null;
  latitude: number | null;
  longitude: number | null;
  /** IANA time zone of the location (used by device geo-consistency). */
  timezone: string | null;
}

type GeoipModule = { lookup(ip: string): Lookup | null };
let geoip: Promise<GeoipModule> | null = null;

/** geoip-lite reads ≈ 110 MB of data synchronously when loaded: only on first use. */
function loadGeoip(): Promise<GeoipModule> {
  geoip ??= import('geoip-lite').then((m) => (m as { default?: GeoipModule }).default ?? (m as unknown as GeoipModule));
  return geoip;
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

export function countryName(code: string | null | undefined): string | null {
  if (!code || !/^[A-Z]{2}$/.test(code)) return null;
  try {
    const name = regionNames.of(code);
    return name && name !== code ? name : null;
  } catch {
    return null;
  }
}

export const EMPTY_GEOLOCATION: Geolocation = {
  country: null,
  countryName: null,
  region: null,
  city: null,
  latitude: null,
  longitude: null,
  timezone: null,
};

export async function geolocate(ip: string): Promise<Geolocation> {
  const hit = (await loadGeoip()).lookup(ip);
  if (!hit || !hit.country) return { ...EMPTY_GEOLOCATION };
  const [latitude, longitude] = hit.ll ?? [];
  return {
    country: hit.country,
    countryName: countryName(hit.country),
    region: hit.region || null,
    city: hit.city || null,
    latitude: typeof latitude === 'number' ? latitude : null,
    longitude: typeof longitude === 'number' ? longitude : null,
    timezone: hit.timezone || null,
  };
}
