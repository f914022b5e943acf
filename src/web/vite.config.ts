import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Names the chunks the app loads later (every `lazyComponent`: Settings, invites, the admin's list, the reminder
 * panel) in index.html as prefetch links: the browser fetches them when idle, after the start, and the service worker,
 * which keeps every /assets/ file index.html names, has them for a start without network (decision 0145). The
 * start's own JavaScript stays as it was.
 */
function prefetchLaterChunks(): Plugin {
  return {
    name: 'steady-prefetch-later-chunks',
    transformIndexHtml: {
      order: 'post',
      handler: (_html, { bundle }) =>
        Object.values(bundle ?? {})
          .filter((item) => item.type === 'chunk' && item.isDynamicEntry)
          .map((chunk) => ({
            tag: 'link',
            attrs: { rel: 'prefetch', href: `/${chunk.fileName}`, crossorigin: true },
            injectTo: 'head' as const,
          })),
    },
  };
}

/** The web app is built into dist/web and served by the Steady server itself (same origin, strict CSP). */
export default defineConfig({
  root,
  base: '/',
  plugins: [preact(), prefetchLaterChunks()],
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
