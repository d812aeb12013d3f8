import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// A static single-page app: everything, including scoring, runs in the page and its worker.
export default defineConfig({
  plugins: [react()],
  base: './',
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 2000,
    // Extra pages: test harnesses served from dist/harness/ beside the app.
    rolldownOptions: { input: { main: 'index.html', viewer: 'harness/viewer.html', cases: 'harness/cases.html', qa: 'harness/qa.html' } },
  },
  server: { port: 5173 },
  preview: { port: 4173, strictPort: true },
});
