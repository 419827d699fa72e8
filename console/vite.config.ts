import { defineConfig } from 'vite';

/**
 * The review console, built by `npm run build` into dist/console and served by the gateway at
 * /console/. Relative URLs (`base: './'`), so it works behind any path prefix; nothing is loaded
 * from another origin at run time.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  // JSX through Vite's own transform (no plugin): React's automatic runtime
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: '../dist/console',
    emptyOutDir: true,
    // a source map next to each file, for reading errors in the browser's tools
    sourcemap: true,
    reportCompressedSize: false,
  },
  logLevel: 'warn',
});
