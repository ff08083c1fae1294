import { defineConfig } from 'vitest/config'

// Tests that run real llama-server processes. On a 2-core machine two of them
// at once oversubscribe the CPU (llama.cpp's threads spin-wait), and a test
// that measures speed or latency then measures the neighbour instead: they run
// one file at a time, after the rest.
const REAL_SERVER = [
  'test/integration/**/*.test.ts',
  'test/e2e/**/*.test.ts',
  'app/**/*.e2e.test.ts',
  'app/**/*-e2e.test.ts',
  'app/**/*.integration.test.ts',
  'app/bench/{cancel,cli,compare,tune}.test.ts',
  'app/core/*.test.ts',
  'app/fit/calibration.test.ts',
  'app/profiles/{switch-profile,engine}.test.ts',
  'app/advisor/live-advisor.test.ts',
  'app/cli/commands/lint.test.ts',
]

// The Windows lane: the built CLI under Windows Node and Wine (set up by
// scripts/windows-lane.mjs). Real servers too, one file at a time, last.
const WINDOWS = ['test/windows/**/*.test.ts']

const ALL = ['app/**/*.test.ts', 'main/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'test/**/*.test.ts']

export default defineConfig({
  test: {
    // Servers a test starts take any free port, never the port setting's 8080 (a developer's own server may hold it).
    env: { LLAMA_TRAY_PORT: '0' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'unit', include: ALL, exclude: [...REAL_SERVER, ...WINDOWS, '**/node_modules/**'], maxWorkers: 2, sequence: { groupOrder: 0 } } },
      // Real processes on a machine that may be busy: deadlines are sanity bounds (10× the usual), never goals.
      { extends: true, test: { name: 'real-server', include: REAL_SERVER, fileParallelism: false, testTimeout: 120_000, hookTimeout: 300_000, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'windows', include: WINDOWS, fileParallelism: false, sequence: { groupOrder: 2 } } },
    ],
  },
})
