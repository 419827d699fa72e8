import { isPrivateAddress, resolveTarget } from './target.js';

describe('callback targets (SSRF guard)', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    // IPv4 inside IPv6: NAT64, 6to4, IPv4-compatible; and the old site-local range
    '64:ff9b::7f00:1',
    '2002:7f00:1::',
    '::7f00:1',
    'fec0::1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])('accepts %s', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it('does not tell what an internal name resolves to', async () => {
    const refused = resolveTarget('https://localhost:9443/hook', false);
    await expect(refused).rejects.toThrow('callbackUrl resolves to a private or loopback address');
    await expect(refused.catch((e: Error) => e.message)).resolves.not.toMatch(/127\.0\.0\.1|::1/);
    await expect(resolveTarget('https://localhost:9443/hook', true)).resolves.toMatchObject({ address: expect.any(String) });
  });
});
