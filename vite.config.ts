import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// One entry per island folder (islands/<name>/main.tsx); the server reads the manifest to print
// each page's script tags. Vendor code is split into shared chunks so islands on one page
// download React and Redux once.
const islandsDir = path.resolve(__dirname, 'islands');
const input = Object.fromEntries(
  fs
    .readdirSync(islandsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(islandsDir, d.name, 'main.tsx')))
    .map((d) => [d.name, path.join(islandsDir, d.name, 'main.tsx')]),
);

export default defineConfig({
  root: __dirname,
  base: '/static/dist/',
  publicDir: false,
  plugins: [react()],
  build: {
    outDir: 'static/dist',
    emptyOutDir: true,
    manifest: true,
    sourcemap: true,
    target: 'es2022',
    rolldownOptions: {
      input,
      output: {
        codeSplitting: {
          groups: [
            { name: 'vendor-maplibre', test: /node_modules[\\/]maplibre-gl/, priority: 30 },
            { name: 'vendor-react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 20 },
            { name: 'vendor-redux', test: /node_modules[\\/](@reduxjs|redux|redux-saga|@redux-saga|react-redux|reselect|immer|use-sync-external-store)[\\/]/, priority: 20 },
            { name: 'vendor-router', test: /node_modules[\\/](react-router|react-router-dom)[\\/]/, priority: 15 },
          ],
        },
      },
    },
  },
});
