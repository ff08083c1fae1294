import { defineConfig } from 'vitest/config'

// Tests that run real llama-server processes (or Chromium, or Wine). They run
// after the unit tests, two files at a time: their servers use one thread
// (`-t 1`, SMALL in test/support/core/tiny-core.ts), so two of them and a busy
// neighbour share a 2-core machine by slowing down, not by starving, and the
// tests assert no speed (their deadlines are sanity bounds, 10x the usual).
// Speed and latency goals are measured in `npm run bench`.
const REAL_SERVER = [
  'test/integration/**/*.test.ts',
  'test/e2e/**/*.test.ts',
  'app/**/*.e2e.test.ts',
  'app/**/*-e2e.test.ts',
  'app/**/*.integration.test.ts',
  'app/bench/{cancel,cli,compare,tune}.test.ts',
  'app/core/*.test.ts',
  'benchmarks/gpu-calibration/calibration.test.ts',
  'app/profiles/{switch-profile,engine}.test.ts',
  'app/advisor/live-advisor.test.ts',
  'app/cli/commands/lint.test.ts',
  // These run or point at the real llama-server binary: in npm test they run once its build is done.
  'app/cli/commands/{models,profiles-pin}.test.ts',
  'app/profiles/{discovery-drafts,fork-detect}.test.ts',
  'test/cli-profiles-import.test.ts',
  'test/fuzz/endpoint-body.fuzz.test.ts',
]

// The Windows lane: the built CLI under Windows Node and Wine (set up by
// scripts/windows-lane.mjs). Real servers too: it shares the real-server
// project, because vitest runs the projects of one group one after another and
// this file (a minute of mostly Wine start-up) then ran alone at the end.
const WINDOWS = ['test/windows/**/*.test.ts']

// benchmarks/ holds the tests of its own support (the fit's calibration against real servers and GPU recordings).
const ALL = ['app/**/*.test.ts', 'main/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'test/**/*.test.ts', 'benchmarks/**/*.test.ts']

export default defineConfig({
  test: {
    // Servers a test starts take any free port, never the port setting's 8080 (a developer's own server may hold it).
    env: { LLAMA_TRAY_PORT: '0' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ALL,
          exclude: [...REAL_SERVER, ...WINDOWS, '**/node_modules/**'],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      // Real processes on a machine that may be busy: deadlines are sanity bounds (10× the usual), never goals.
      {
        extends: true,
        test: {
          name: 'real-server',
          include: [...REAL_SERVER, ...WINDOWS],
          maxWorkers: 2,
          testTimeout: 120_000,
          hookTimeout: 300_000,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
})
