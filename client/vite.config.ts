import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { accessibleNames } from './build/accessible-names';
import { precompress } from './build/precompress';

const root = import.meta.dirname;

/**
 * Two HTML entries: the back-office (`index.html`) and the student portal (`portal.html`). The server
 * answers every non-API GET with one of them depending on the host (`student.*` → portal). Every text file
 * of the build is stored brotli- and gzip-compressed beside itself, which the server sends (`precompress`).
 */
export default defineConfig({
  root,
  plugins: [react(), accessibleNames(), precompress()],
  build: {
    outDir: resolve(root, 'dist'),
    emptyOutDir: true,
    manifest: true,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      input: {
        index: resolve(root, 'index.html'),
        portal: resolve(root, 'portal.html'),
      },
    },
  },
  server: {
    proxy: { '/api': process.env.API_ORIGIN ?? 'http://localhost:3000' },
  },
});
