import {
  deviceIdOf,
  detectEmulator,
  detectGeoMismatch,
  detectRooted,
  formatDeviceAge,
  scoreDevice,
  utcOffsetMinutes,
  validateFingerprint,
  type DeviceSignals,
} from './fingerprint.js';

const ORG = '6f1c0b7e-1111-4a4a-9999-000000000001';
const PIXEL_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36';
const PIXEL = {
  userAgent: PIXEL_UA,
  platform: 'Linux aarch64',
  screenResolution: '412x915',
  timezone: 'Africa/Lagos',
  language: 'en-NG',
  webgl: 'ANGLE (Qualcomm, Adreno (TM) 740, OpenGL ES 3.2)',
  canvas: 'c4nv4s-h4sh-1',
};
const EMULATOR_UA =
  'Mozilla/5.0 (Linux; Android 11; sdk_gphone_x86 Build/RSR1.201013.001) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/83.0.4103.106 Mobile Safari/537.36';

const quiet: DeviceSignals = {
  emulator: false,
  rooted: false,
  vpn: false,
  knownFraudDevice: false,
  geoMismatch: false,
  multipleAccounts: 1,
  deviceAge: '0 days',
};

describe('device id', () => {
  it('is dfp_ + 32 hex, stable for the same device', () => {
    const id = deviceIdOf(ORG, PIXEL);
    expect(id).toMatch(/^dfp_[0-9a-f]{32}$/);
    expect(deviceIdOf(ORG, { ...PIXEL })).toBe(id);
  });

  it('survives browser updates, orientation changes and whitespace', () => {
    const updated = PIXEL_UA.replace('124.0.6367.82', '131.0.6778.39');
    expect(deviceIdOf(ORG, { ...PIXEL, userAgent: updated })).toBe(deviceIdOf(ORG, PIXEL));
    expect(deviceIdOf(ORG, { ...PIXEL, screenResolution: '915x412' })).toBe(deviceIdOf(ORG, PIXEL));
    expect(deviceIdOf(ORG, { ...PIXEL, timezone: ' Africa/Lagos ' })).toBe(deviceIdOf(ORG, PIXEL));
  });

  it('differs for another device, and for another organization', () => {
    expect(deviceIdOf(ORG, { ...PIXEL, canvas: 'other' })).not.toBe(deviceIdOf(ORG, PIXEL));
    expect(deviceIdOf(ORG, { ...PIXEL, webgl: 'Mali-G78' })).not.toBe(deviceIdOf(ORG, PIXEL));
    expect(deviceIdOf('6f1c0b7e-1111-4a4a-9999-000000000002', PIXEL)).not.toBe(deviceIdOf(ORG, PIXEL));
  });
});

describe('fingerprint validation', () => {
  it('accepts a full fingerprint and Accept-Language lists', () => {
    expect(validateFingerprint(PIXEL)).toEqual([]);
    expect(validateFingerprint({ language: 'fr-SN,fr;q=0.9,en;q=0.8' })).toEqual([]);
    expect(validateFingerprint({ screenResolution: '1920x1080x24' })).toEqual([]);
  });

  it('names each invalid member', () => {
    expect(validateFingerprint({})).toEqual([expect.stringMatching(/at least one of/)]);
    expect(validateFingerprint({ timezone: 'Mars/Olympus' })).toEqual([
      'fingerprint.timezone must be an IANA time zone (e.g. Africa/Lagos)',
    ]);
    expect(validateFingerprint({ language: 'en_US!' })).toEqual([expect.stringMatching(/BCP 47/)]);
    expect(validateFingerprint({ screenResolution: 'big' })).toEqual([expect.stringMatching(/1920x1080/)]);
    expect(validateFingerprint({ userAgent: 'x'.repeat(2000) })).toEqual([expect.stringMatching(/at most 1024/)]);
  });
});

describe('emulator and rooted signals', () => {
  it('sees nothing on a real phone', () => {
    expect(detectEmulator(PIXEL)).toEqual([]);
    expect(detectRooted(PIXEL)).toEqual([]);
  });

  it('finds Android emulator builds in the user agent', () => {
    expect(detectEmulator({ userAgent: EMULATOR_UA })).toEqual([expect.stringMatching(/sdk_gphone/)]);
    expect(
      detectEmulator({ userAgent: 'Mozilla/5.0 (Linux; Android 9; Android SDK built for x86 Build/PSR1.180720.093) AppleWebKit/537.36' }),
    ).toContain('user agent names an Android SDK emulator build');
  });

  it('finds software and virtual GPUs in the WebGL renderer', () => {
    expect(
      detectEmulator({ ...PIXEL, webgl: 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)' }),
    ).toEqual([expect.stringMatching(/SwiftShader/)]);
    expect(detectEmulator({ webgl: 'llvmpipe (LLVM 15.0.7, 256 bits)' })).toEqual([expect.stringMatching(/llvmpipe/)]);
    expect(detectEmulator({ webgl: 'ANGLE (VMware, Inc., VMware SVGA 3D)' })).toEqual([expect.stringMatching(/virtual machine/)]);
  });

  it('finds an Android user agent on an x86 platform, and headless browsers', () => {
    expect(detectEmulator({ ...PIXEL, platform: 'Linux x86_64' })).toEqual([expect.stringMatching(/x86/)]);
    expect(
      detectEmulator({
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36',
      }),
    ).toContain('automated or headless browser');
  });

  it('finds custom ROM and root-tool markers', () => {
    expect(detectRooted({ userAgent: 'Mozilla/5.0 (Linux; Android 13; LineageOS on Redmi Note 8) AppleWebKit/537.36' })).toEqual([
      expect.stringMatching(/custom ROM/),
    ]);
    expect(detectRooted({ userAgent: PIXEL_UA + ' Magisk' })).toEqual([expect.stringMatching(/root tool/)]);
  });
});

describe('geo consistency', () => {
  const lagos = { country: 'NG', timezone: 'Africa/Lagos' };
  const at = new Date('2026-01-15T12:00:00Z');

  it('accepts neighbouring time zones and the languages of the country', () => {
    expect(detectGeoMismatch({ timezone: 'Africa/Douala', language: 'ha' }, lagos, at)).toEqual([]);
    expect(detectGeoMismatch({ timezone: 'Africa/Dakar', language: 'fr-FR' }, { country: 'SN', timezone: 'Africa/Dakar' }, at)).toEqual([]);
    expect(detectGeoMismatch({ language: 'en-US' }, { country: 'KE', timezone: 'Africa/Nairobi' }, at)).toEqual([]);
    expect(detectGeoMismatch({ language: 'sw-KE' }, { country: 'KE', timezone: 'Africa/Nairobi' }, at)).toEqual([]);
  });

  it('flags a far time zone and a foreign language', () => {
    expect(detectGeoMismatch({ timezone: 'Asia/Jakarta' }, lagos, at)).toEqual([
      expect.stringMatching(/Asia\/Jakarta \(UTC\+07:00\).*Africa\/Lagos \(UTC\+01:00\)/),
    ]);
    expect(detectGeoMismatch({ language: 'ru-RU' }, lagos, at)).toEqual([expect.stringMatching(/ru-RU/)]);
  });

  it('needs an IP location', () => {
    expect(detectGeoMismatch({ timezone: 'Asia/Jakarta', language: 'ru' }, { country: null, timezone: null }, at)).toEqual([]);
  });

  it('computes UTC offsets with daylight saving', () => {
    expect(utcOffsetMinutes('Africa/Lagos', at)).toBe(60);
    expect(utcOffsetMinutes('America/New_York', new Date('2026-07-01T12:00:00Z'))).toBe(-240);
    expect(utcOffsetMinutes('Asia/Kolkata', at)).toBe(330);
    expect(utcOffsetMinutes('Nowhere/Land', at)).toBeNull();
  });
});

describe('device risk score', () => {
  it('is 0 and LOW for a quiet device', () => {
    expect(scoreDevice(quiet, null)).toEqual({ riskScore: 0, riskLevel: 'LOW', reasons: [] });
  });

  it('adds the documented weights', () => {
    const emulatorVpn = scoreDevice({ ...quiet, emulator: true, vpn: true }, { isDatacenter: true, isKnownAbuser: false });
    expect(emulatorVpn.riskScore).toBe(0.6); // 0.4 + 0.2; datacenter not counted twice
    expect(emulatorVpn.riskLevel).toBe('HIGH');
    expect(emulatorVpn.reasons.map((r) => r.signal)).toEqual(['emulator', 'vpn']);
    expect(scoreDevice({ ...quiet, geoMismatch: true }, { isDatacenter: true, isKnownAbuser: false })).toMatchObject({
      riskScore: 0.25,
      riskLevel: 'LOW',
    });
    expect(scoreDevice({ ...quiet, knownFraudDevice: true }, null)).toMatchObject({ riskScore: 0.6, riskLevel: 'HIGH' });
  });

  it('counts extra accounts up to a cap, and caps the sum at 1', () => {
    expect(scoreDevice({ ...quiet, multipleAccounts: 2 }, null).riskScore).toBe(0.1);
    expect(scoreDevice({ ...quiet, multipleAccounts: 3 }, null)).toMatchObject({ riskScore: 0.2, riskLevel: 'LOW' });
    expect(scoreDevice({ ...quiet, multipleAccounts: 40 }, null).riskScore).toBe(0.3);
    const all = scoreDevice(
      { emulator: true, rooted: true, vpn: true, knownFraudDevice: true, geoMismatch: true, multipleAccounts: 9, deviceAge: '1 day' },
      { isDatacenter: false, isKnownAbuser: true },
    );
    expect(all.riskScore).toBe(1);
    expect(all.reasons).toHaveLength(7);
  });

  it('formats the device age in days', () => {
    const now = new Date('2026-03-01T00:00:00Z');
    expect(formatDeviceAge(now, now)).toBe('0 days');
    expect(formatDeviceAge(new Date('2026-02-28T00:00:00Z'), now)).toBe('1 day');
    expect(formatDeviceAge(new Date('2026-01-16T00:00:00Z'), now)).toBe('44 days');
  });
});
