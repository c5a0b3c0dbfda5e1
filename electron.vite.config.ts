import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// Top-level main/, preload/, renderer/ folders (ARCHITECTURE §2) instead of electron-vite's src/.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      lib: {
        entry: {
          index: resolve(import.meta.dirname, 'main/app/index.ts'),
          // The simulation process (a utilityProcess; main/runs/broker.ts starts it).
          simProcess: resolve(import.meta.dirname, 'main/runs/simProcess.ts'),
        },
      },
      rollupOptions: {
        // Native and heavy Node packages load from node_modules at run time.
        external: ['node-llama-cpp', '@huggingface/transformers', 'onnxruntime-node', 'sharp'],
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      lib: { entry: resolve(import.meta.dirname, 'preload/index.ts') },
      // A sandboxed preload cannot load ES modules.
      rollupOptions: { output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'renderer'),
    publicDir: resolve(import.meta.dirname, 'resources'),
    build: {
      outDir: resolve(import.meta.dirname, 'out/renderer'),
      minify: true,
      rollupOptions: { input: resolve(import.meta.dirname, 'renderer/index.html') },
    },
    plugins: [react()],
  },
});
