import { flowBase } from './base.js';

describe('where <verification-flow> finds the flow', () => {
  it('from the gateway that served the script, under its path prefix', () => {
    expect(flowBase(null, 'https://verify.example.com/flow/embed.js')).toBe('https://verify.example.com');
    expect(flowBase(null, 'https://example.com/kyc/flow/embed.js')).toBe('https://example.com/kyc');
  });

  it('from its origin attribute when the script came from elsewhere (the npm package, a bundle)', () => {
    expect(flowBase('https://verify.example.com', 'https://cdn.shop.example/assets/embed.js')).toBe('https://verify.example.com');
    expect(flowBase('https://example.com/kyc/', 'https://cdn.shop.example/embed.js')).toBe('https://example.com/kyc');
  });

  it('nowhere else', () => {
    expect(flowBase('javascript:alert(1)', 'https://verify.example.com/flow/embed.js')).toBeNull();
    expect(flowBase('not a url', '')).toBeNull();
    expect(flowBase(null, '')).toBeNull();
  });
});
