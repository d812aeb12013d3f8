import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts', 'cli/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
    exclude: ['**/*.browser.test.*', 'node_modules/**', 'e2e/**'],
    globalSetup: ['test/globalSetup.ts'],
    testTimeout: 60_000,
  },
});
