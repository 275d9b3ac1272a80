import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress.ts';

// In development the SPA and the API run as two processes; proxying /api keeps them same-origin
// so the httpOnly session cookies (SameSite=Lax) flow exactly as in the all-in-one server.
// `/l/` is the API's too: the short links (docs/analytics.md#short-links) live on the app's host.
const apiProxy = {
  '/api': { target: 'http://127.0.0.1:3000' },
  '/l/': { target: 'http://127.0.0.1:3000' },
};

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: { proxy: apiProxy },
  preview: { proxy: apiProxy },
  build: {
    rolldownOptions: {
      output: {
        // Libraries change far less often than the app: separate chunks stay cached across
        // deployments, and no single file blocks the first paint for long. `react` and `query`
        // are the shell (index.html preloads them); `zod` loads with the first parsed answer.
        // Everything else is split by route (see app/router.tsx) and shared-module chunks.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
            },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/ },
          ],
        },
      },
    },
  },
});
