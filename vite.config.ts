import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { viteSingleFile } from 'vite-plugin-singlefile';

const SPAWN = fileURLToPath(new URL('./src/worker/spawn.ts', import.meta.url));
const SPAWN_INLINE = fileURLToPath(new URL('./src/worker/spawn.inline.ts', import.meta.url));

/**
 * `vite build --mode single` → dist/benchlens.html, one file that works opened from disk:
 * scripts, styles and both workers inlined (a file:// page may load neither module scripts nor
 * worker files), the favicon as a data: URL, no manifest or service worker (file:// has none),
 * and the page's Content-Security-Policy allowing exactly the inlined scripts by hash instead of
 * 'self'.
 */
function singleFilePage(): Plugin[] {
  return [
    {
      name: 'benchlens:inline-workers',
      enforce: 'pre',
      async resolveId(source, importer, options) {
        if (!importer) return null;
        const r = await this.resolve(source, importer, { ...options, skipSelf: true });
        return r?.id === SPAWN ? SPAWN_INLINE : null;
      },
    },
    {
      name: 'benchlens:single-page-head',
      transformIndexHtml: (html) =>
        html
          .replace(/\s*<link rel="manifest"[^>]*>/, '')
          .replace(
            /href="\.?\/?favicon\.svg"/,
            () => `href="data:image/svg+xml;base64,${readFileSync(new URL('./public/favicon.svg', import.meta.url)).toString('base64')}"`,
          ),
    },
    {
      name: 'benchlens:single-page-file',
      enforce: 'post',
      // After vite-plugin-singlefile has inlined everything (its generateBundle is also
      // order 'post' and comes earlier in the plugin list).
      generateBundle: { order: 'post', handler(_options, bundle) {
        const page = bundle['index.html'];
        if (!page || page.type !== 'asset') throw new Error('single-file build: no index.html');
        let html = String(page.source);
        const hashes = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)]
          .filter((m) => m[1].trim())
          .map((m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`);
        if (!/script-src 'self'/.test(html)) throw new Error("single-file build: index.html's CSP has no script-src 'self' to replace");
        // 'wasm-unsafe-eval' lets the inlined workers (which share the page's policy, unlike
        // the served build's worker files) compile hyparquet's snappy WebAssembly; it permits no
        // JavaScript eval.
        html = html.replace(/script-src 'self'/, `script-src ${hashes.join(' ')} 'wasm-unsafe-eval'`);
        delete bundle['index.html'];
        this.emitFile({ type: 'asset', fileName: 'benchlens.html', source: html });
      } },
    },
  ];
}

// A static single-page app: everything, including scoring, runs in the page and its worker.
export default defineConfig(({ mode }) => {
  const single = mode === 'single';
  return {
    plugins: [
      react(),
      ...(single
        ? [viteSingleFile({ removeViteModuleLoader: true }), ...singleFilePage()]
        : [
            // Precaches the built app, so after one visit it opens and scores with the network off.
            VitePWA({
              registerType: 'autoUpdate',
              // registerSW.js as a file: the page's CSP allows no inline script.
              injectRegister: 'script',
              manifest: false, // public/manifest.webmanifest
              workbox: {
                globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
                // Test harness pages and the single-file page are not the app.
                globIgnores: ['harness/**', 'benchlens.html', 'demo/**'],
                navigateFallback: 'index.html',
                navigateFallbackDenylist: [/\/harness\//, /benchlens\.html$/],
                // The main chunk is several MiB (react, konva, the whole core); precache it.
                maximumFileSizeToCacheInBytes: 16 * 2 ** 20,
                cleanupOutdatedCaches: true,
                // A new build takes over at once, the open page included.
                clientsClaim: true,
                skipWaiting: true,
              },
            }),
          ]),
    ],
    base: './',
    // Inlined workers start from a blob: URL, which has no folder to load split chunks from, and
    // as classic scripts: Chromium refuses module workers from a file:// page's blob: URLs.
    worker: single ? { format: 'iife', rolldownOptions: { output: { codeSplitting: false } } } : { format: 'es' },
    build: {
      target: 'es2022',
      sourcemap: !single,
      chunkSizeWarningLimit: single ? 8000 : 2000,
      // The single-file page is added to the app's dist/ (built first), not in place of it.
      emptyOutDir: !single,
      copyPublicDir: !single,
      // Extra pages: test harnesses served from dist/harness/ beside the app.
      rolldownOptions: {
        input: single
          ? { main: 'index.html' }
          : ({ main: 'index.html', viewer: 'harness/viewer.html', cases: 'harness/cases.html', qa: 'harness/qa.html' } as Record<string, string>),
      },
    },
    server: { port: 5173 },
    preview: { port: 4173, strictPort: true },
  };
});
