import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// Two builds from one config: the browser bundle (root src/client, with index.html) and the server (SSR) bundle.
export default defineConfig(({ isSsrBuild }) =>
  isSsrBuild
    ? {
        plugins: [react()],
        publicDir: false,
        build: {
          ssr: 'src/server/main.ts',
          outDir: 'dist/server',
          emptyOutDir: true,
          target: 'node24',
          sourcemap: true,
        },
      }
    : {
        root: 'src/client',
        plugins: [react()],
        build: {
          outDir: '../../dist/client',
          emptyOutDir: true,
          target: 'es2022',
        },
      },
)
