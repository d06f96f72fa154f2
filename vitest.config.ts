import { defineConfig } from 'vitest/config';

// Integration tests talk HTTP to the real service, which the integration
// project's global setup starts; unit-level suites run without it.
const INTEGRATION = ['test/api/**/*.test.ts'];

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 180_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: INTEGRATION } },
      { extends: true, test: { name: 'integration', include: INTEGRATION, globalSetup: ['test/support/global-setup.ts'] } },
    ],
  },
});
