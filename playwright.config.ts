import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './e2e/chromium';

export default defineConfig({
  testDir: 'e2e',
  testMatch: /.*\.spec\.ts/,
  globalSetup: './e2e/globalSetup.ts',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: 'http://127.0.0.1:4173/',
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
    viewport: { width: 1400, height: 900 },
    trace: 'off',
  },
  webServer: {
    command: 'npx vite preview --host 127.0.0.1 --port 4173 --strictPort',
    url: 'http://127.0.0.1:4173/',
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
