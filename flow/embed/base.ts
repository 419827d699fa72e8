/**
 * Where the element finds the flow's page: its `origin` attribute (the gateway's URL, for a copy
 * of this script bundled or served from elsewhere, e.g. the npm package), else the URL this script
 * was loaded from (`<origin><prefix>/flow/embed.js`, served by the gateway). Null when neither
 * names an http(s) location.
 */
export function flowBase(originAttribute: string | null, scriptUrl: string): string | null {
  try {
    if (originAttribute) {
      const url = new URL(originAttribute);
      return /^https?:$/.test(url.protocol) ? `${url.origin}${url.pathname.replace(/\/+$/, '')}` : null;
    }
    const url = new URL(scriptUrl);
    return /^https?:$/.test(url.protocol) ? `${url.origin}${url.pathname.replace(/\/flow\/embed\.js$/, '')}` : null;
  } catch {
    return null;
  }
}
