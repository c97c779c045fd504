import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Served by the api at /console/ (apps/api/src/features/console): every asset is a file of dist/,
// nothing from a CDN, no web fonts.
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, reportCompressedSize: true, chunkSizeWarningLimit: 400 },
});
