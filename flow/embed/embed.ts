/**
 * `<verification-flow token="…">`: the hosted verification flow inside an integrator's page.
 * The element holds an iframe of `<this script's origin and prefix>/flow/<token>?embed=1` (camera
 * allowed) and turns the flow's messages into DOM events on itself — `step`, `complete`, `error`
 * (CustomEvent, `detail` as the flow sent it) — taking only messages from that iframe's window and
 * origin. Optional attributes: `lang` (`en`, `fr`), `title` (the iframe's accessible name),
 * `origin` (the gateway's URL, when this script is a copy served from elsewhere: the npm package).
 * No framework, no inline style sheet (an integrator's style-src need not allow one): sizes are
 * set through the CSSOM.
 */

const SOURCE = 'verification-flow';
const EVENTS = new Set(['step', 'complete', 'error']);

import { flowBase } from './base.js';

/** Where this script was loaded from: the gateway serving the flow (`<origin><prefix>/flow/embed.js`), or a copy elsewhere. */
const SCRIPT_URL = (document.currentScript as HTMLScriptElement | null)?.src ?? '';

export class VerificationFlowElement extends HTMLElement {
  static observedAttributes = ['token', 'lang', 'origin'];
  private frame: HTMLIFrameElement | undefined;
  private readonly onMessage = (event: MessageEvent) => this.relay(event);

  connectedCallback(): void {
    window.addEventListener('message', this.onMessage);
    this.render();
  }

  disconnectedCallback(): void {
    window.removeEventListener('message', this.onMessage);
  }

  attributeChangedCallback(): void {
    if (this.isConnected) this.render();
  }

  private get src(): URL | null {
    const token = this.getAttribute('token');
    const base = flowBase(this.getAttribute('origin'), SCRIPT_URL);
    if (!token || !/^[A-Za-z0-9_-]+$/.test(token) || !base) return null;
    const src = new URL(`${base}/flow/${token}`);
    src.searchParams.set('embed', '1');
    const lang = this.getAttribute('lang');
    if (lang) src.searchParams.set('lang', lang);
    return src;
  }

  private render(): void {
    const src = this.src;
    if (!src) return;
    if (this.frame?.src === src.href) return;
    this.frame?.remove();
    const frame = document.createElement('iframe');
    frame.src = src.href;
    frame.allow = 'camera';
    frame.title = this.getAttribute('title') || 'Identity verification';
    frame.style.setProperty('display', 'block');
    frame.style.setProperty('width', '100%');
    frame.style.setProperty('min-height', '36rem');
    frame.style.setProperty('border', '0');
    if (!this.style.display) this.style.setProperty('display', 'block');
    this.frame = frame;
    this.append(frame);
  }

  private relay(event: MessageEvent): void {
    const frame = this.frame;
    if (!frame || event.source !== frame.contentWindow || event.origin !== new URL(frame.src).origin) return;
    const data = event.data as { source?: unknown; type?: unknown; detail?: unknown } | null;
    if (!data || data.source !== SOURCE || typeof data.type !== 'string') return;
    if (data.type === 'resize') {
      const height = (data.detail as { height?: unknown } | null)?.height;
      if (typeof height === 'number' && height > 0) frame.style.setProperty('height', `${Math.ceil(height)}px`);
      return;
    }
    if (EVENTS.has(data.type)) this.dispatchEvent(new CustomEvent(data.type, { detail: data.detail, bubbles: true, composed: true }));
  }
}

if (!customElements.get('verification-flow')) customElements.define('verification-flow', VerificationFlowElement);
