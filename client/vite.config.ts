import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { accessibleNames } from './build/accessible-names';

const root = import.meta.dirname;

/**
 * Two HTML entries: the back-office (`index.html`) and the student portal (`portal.html`). The server
 * answers every non-API GET with one of them depending on the host (`student.*` → portal).
 */
export default defineConfig({
  root,
  plugins: [react(), accessibleNames()],
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
