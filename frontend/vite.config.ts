/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));
// See src/admin/raRouterShim.ts: keeps react-router's data-router code out of the entry chunk.
const raRouterShim = fileURLToPath(new URL('./src/admin/raRouterShim.ts', import.meta.url));
const raRouterAdapter = /ra-core[\\/]dist[\\/]routing[\\/]adapters[\\/]reactRouterProvider\.js$/;

export default defineConfig({
  root,
  plugins: [
    react(),
    {
      name: 'admin-router-shim',
      enforce: 'pre',
      resolveId: (source, importer) => (source === 'react-router-dom' && importer && raRouterAdapter.test(importer) ? raRouterShim : null),
    },
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The manifest feeds scripts/bundle-size.mjs (gzip JS per route).
    manifest: true,
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
