/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
// See src/admin/raRouterShim.ts: keeps react-router's data-router code out of the entry chunk.
const raRouterShim = fileURLToPath(new URL('./src/admin/raRouterShim.ts', import.meta.url));
const raRouterAdapter = /ra-core[\\/]dist[\\/]routing[\\/]adapters[\\/]reactRouterProvider\.js$/;

const cdsPackage = (name: string) => fileURLToPath(new URL(`../packages/${name}/src/index.ts`, import.meta.url));

const PRELOADED_PAGES = /(^|\/)(AuthPage|Dashboard|Unauthorized|NotFound|InvitePage)-[\w-]+\.js$/;
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest|ico)$/;

/**
 * Writes file.br and file.gz next to every compressible built file (node:zlib, brotli at quality
 * 11 and gzip at level 9, once at build time), kept only when smaller. The server sends them to
 * clients that accept the encoding (backend/src/static-files.ts).
 */
function precompress(outDir: string): Plugin {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (name.startsWith('.')) return [];
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
  return {
    name: 'precompress',
    apply: 'build',
    closeBundle() {
      for (const file of walk(outDir).filter((f) => COMPRESSIBLE.test(f))) {
        const raw = readFileSync(file);
        const br = brotliCompressSync(raw, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length },
        });
        const gz = gzipSync(raw, { level: 9 });
        if (br.length < raw.length) writeFileSync(`${file}.br`, br);
        if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}

export default defineConfig({
  root,
  // The workspace packages are compiled from source, like the app's own files.
  resolve: { alias: { '@cds/engine': cdsPackage('engine'), '@cds/contracts': cdsPackage('contracts') } },
  plugins: [
    react(),
    {
      name: 'admin-router-shim',
      enforce: 'pre',
      resolveId: (source, importer) => (source === 'react-router-dom' && importer && raRouterAdapter.test(importer) ? raRouterShim : null),
    },
    precompress(join(root, 'dist')),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The manifest feeds scripts/bundle-size.mjs (gzip JS per route).
    manifest: true,
    // The entry chunk carries, for each lazy page, the list of chunks to preload with it (hashed
    // names, ~1.6 kB gzip in all, over the 120 kB budget of /). Keep the lists for the public
    // pages; the signed-in consoles fetch their shared chunks one round trip later instead.
    modulePreload: {
      resolveDependencies: (filename, deps) => (PRELOADED_PAGES.test(filename) ? deps : []),
    },
    sourcemap: false,
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
  preview: {
    port: 4173,
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
    // CI shares two cores with the API suites' leftovers; react-admin pages render slowly in jsdom there.
    testTimeout: 30_000,
  },
});
