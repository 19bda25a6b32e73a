import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  plugins: [react()],
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'tests/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: integration and browser files start servers and Chromium; keep them from starving each other.
    maxWorkers: 2,
    globalSetup: ['tests/helpers/global-setup.ts'],
  },
})
