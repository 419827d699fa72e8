import { defineConfig } from 'vite';

/**
 * The end user's verification flow, built by `npm run build` into dist/flow and served by the
 * gateway at /flow/<link token> (its files at /flow/assets/). Relative URLs (`base: './'`): from
 * /flow/<token>, `./assets/…` is /flow/assets/…, behind any path prefix. Nothing is loaded from
 * another origin at run time (the organization's logo aside); no inline script or style, as the
 * page's Content-Security-Policy wants. The web component (embed/) is built after it into the same
 * folder (embed/vite.config.ts).
 */
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  // JSX through Vite's own transform (no plugin): React's automatic runtime
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: '../dist/flow',
    emptyOutDir: true,
    sourcemap: true,
    reportCompressedSize: false,
    // no `data:` fonts or images inlined into the CSS: every file is served from this origin
    assetsInlineLimit: 0,
  },
  logLevel: 'warn',
});
