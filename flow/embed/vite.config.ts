import { defineConfig } from 'vite';

/**
 * The web component `<verification-flow>` as one classic script with a fixed name,
 * dist/flow/embed.js (the gateway serves it at /flow/embed.js): no imports, no framework, so an
 * integrator's page loads it with a plain `<script src>`. Built after the page (vite.config.ts
 * empties the folder first).
 */
export default defineConfig({
  root: import.meta.dirname,
  build: {
    outDir: '../../dist/flow',
    emptyOutDir: false,
    sourcemap: true,
    reportCompressedSize: false,
    lib: { entry: 'embed.ts', formats: ['iife'], name: 'VerificationFlowEmbed', fileName: () => 'embed.js' },
  },
  logLevel: 'warn',
});
