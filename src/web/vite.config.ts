import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Names the chunks the app loads later (every `lazyComponent`: Settings, invites, the admin's list, the reminder
 * panel, the goal form, the arrange page, and the small chunks only they share) in index.html as prefetch links: the
 * browser fetches them when idle, after the start, and the service worker, which keeps every /assets/ file index.html
 * names (and drops the others), has them for a start without network (decision 0145). The start's own JavaScript,
 * the entry and what it imports, stays as it was.
 */
function prefetchLaterChunks(): Plugin {
  return {
    name: 'steady-prefetch-later-chunks',
    transformIndexHtml: {
      order: 'post',
      handler: (_html, { bundle }) => {
        const chunks = Object.values(bundle ?? {}).filter((item) => item.type === 'chunk');
        const atStart = new Set<string>();
        const visit = (fileName: string) => {
          if (atStart.has(fileName)) return;
          atStart.add(fileName);
          chunks.find((chunk) => chunk.fileName === fileName)?.imports.forEach(visit);
        };
        chunks.filter((chunk) => chunk.isEntry).forEach((chunk) => visit(chunk.fileName));
        return chunks
          .filter((chunk) => !atStart.has(chunk.fileName))
          .map((chunk) => ({
            tag: 'link',
            attrs: { rel: 'prefetch', href: `/${chunk.fileName}`, crossorigin: true },
            injectTo: 'head' as const,
          }));
      },
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
    // Everything the start imports statically is one chunk, the entry (decision 0175). Without this group, Rolldown
    // moves the modules the start shares with lazy chunks back into the entry one group at a time, refusing each move
    // that would leave a chunk cycle at that moment; a lazy page importing pages/goals.tsx (which imports Page and
    // context, shared with other pages) made it refuse the group of Preact, i18n, api and Field, which the start then
    // loaded as a second chunk, larger in all than before.
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'start', tags: ['$initial'] }] } } },
  },
});
