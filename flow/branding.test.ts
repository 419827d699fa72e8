import { DEFAULT_PRIMARY, PAGE, contrast, logoUrl, palette, parseHex, textOn } from './src/branding';

/** Branding colours are made readable whatever the organization gives (WCAG 2.2 AA). */
describe('flow branding', () => {
  const cases = ['#ffeb3b', '#00ff00', '#ffffff', '#000000', '#e91e63', '#1d4ed8', '#777777', '#0ff', '#abcdef', '#123456'];

  it.each(cases)('primary %s: buttons and links reach 4.5:1, their text 4.5:1', (primaryColor) => {
    const colours = palette({ primaryColor, accentColor: primaryColor });
    expect(contrast(colours.primary, PAGE)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(colours.onPrimary, colours.primary)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(colours.accent, PAGE)).toBeGreaterThanOrEqual(3);
  });

  it('keeps a colour that is readable already, and picks the more readable text', () => {
    expect(palette({ primaryColor: '#1D4ED8' }).primary).toBe('#1d4ed8');
    expect(textOn('#1d4ed8')).toBe('#ffffff');
    expect(textOn('#ffeb3b')).toBe('#111418');
  });

  it('takes hex colours only, and https logos only', () => {
    expect(parseHex('red')).toBeNull();
    expect(parseHex('#12345')).toBeNull();
    expect(palette({ primaryColor: 'url(x)' }).primary).toBe(DEFAULT_PRIMARY);
    expect(palette(null).primary).toBe(DEFAULT_PRIMARY);
    expect(logoUrl({ logoUrl: 'https://cdn.example/logo.png' })).toBe('https://cdn.example/logo.png');
    expect(logoUrl({ logoUrl: 'http://cdn.example/logo.png' })).toBeNull();
    expect(logoUrl({ logoUrl: 'javascript:alert(1)' })).toBeNull();
  });
});
