import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The web app is built into dist/web and served by the Steady server itself (same origin, strict CSP). */
export default defineConfig({
  root,
  base: '/',
  plugins: [preact()],
  build: {
    outDir: fileURLToPath(new URL('../../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // The polyfill would be an inline script, which the Content-Security-Policy refuses.
    modulePreload: { polyfill: false },
    // Small files inlined as data: URLs are fine for images but never for scripts or styles.
    assetsInlineLimit: 0,
    target: 'es2022',
  },
});
