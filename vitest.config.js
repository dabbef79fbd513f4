import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './tests/support/slow-first-sequencer.js';

export default defineConfig({
  test: {
    include: ['tests/js/**/*.test.js', 'tests/browser/**/*.test.js', 'tests/package/**/*.test.js'],
    // One fixed fast-check seed (tests/support/fast-check-seed.js): deterministic runs.
    setupFiles: ['tests/support/fast-check-seed.js'],
    // One demo Vite server for every browser test file (tests/support/demo-server.js).
    globalSetup: ['tests/support/demo-server.js'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Browser tests start Chromium; keep files from fighting over 2 cores.
    fileParallelism: true,
    maxWorkers: 2,
    // Long files first, so no minute-long file starts last (tests/support/slow-first-sequencer.js).
    sequence: { sequencer: SlowFirstSequencer },
  },
});
