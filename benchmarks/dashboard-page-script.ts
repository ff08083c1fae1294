/**
 * The in-page half of the dashboard bench, as plain JavaScript source (it is
 * evaluated in Chromium, so it must not depend on how this file is bundled).
 * It defines window.__dashBench.run(count, measure): pushes `count` synthetic
 * 1 Hz snapshots (plus a log line every 3 s) through the bridge, and for each
 * returns the time from the push to the end of a forced layout, after React's
 * commit and uPlot's redraw (both run in microtasks before the next task).
 */
export const DASHBOARD_PAGE_SCRIPT =
  String.raw`
(() => {
  const start = Date.now() - 3600 * 1000
  let second = 0
  const perSecond = []
  const requests = []
  const emit = window.__llamaTrayEmit
  const status = (t) => ({ state: 'ready', profileId: 'qwen', pid: 4242, host: '127.0.0.1', port: 8081, ` +
  String.raw`exe: '/opt/llama-server', readySince: start, sleepIdleSeconds: null, lastExit: null, restarts: 0 })
  function snapshot() {
    const time = start + second * 1000
    const tps = 30 + 8 * Math.sin(second / 17)
    perSecond.push({ time, tokensPerSecond: tps, activeSlots: 1 })
    if (perSecond.length > 300) perSecond.shift()
    if (second % 20 === 0) {
      requests.push({ time, slotId: 0, taskId: second, promptTokens: 812, promptMs: 2100, promptTokensPerSecond: 386.7, ` +
  String.raw`predictedTokens: 640, predictedMs: 19000, predictedTokensPerSecond: 33.6, draftTokens: 500, draftAccepted: 340, draftAcceptance: 0.68 })
      if (requests.length > 50) requests.shift()
    }
    const free = 2400 - 300 * Math.sin(second / 40)
    return {
      time,
      server: status(time),
      generation: {
        active: true, tokensPerSecond: tps,
        slots: [{ id: 0, taskId: second, state: 'generating', tokensPerSecond: tps, decoded: second % 600, remaining: 1000, ` +
  String.raw`promptProgress: null, contextUsed: 4000 + (second % 600), contextSize: 32768 }],
        last: requests[requests.length - 1] ?? null, contextUsed: 4000, contextSize: 32768,
        poll: { state: 'ok', detail: null },
        history: { perSecond: perSecond.slice(), requests: requests.slice() },
        rolling: { profileId: 'qwen', requests: requests.length, medianTokensPerSecond: 33.6, medianPromptTokensPerSecond: 386.7, draftAcceptance: 0.68 },
      },
      gpu: { available: true, reason: null, backend: 'nvml', stale: false, sampledAt: time, devices: [{ index: 0, ` +
  String.raw`name: 'RTX 4060 Laptop GPU', memoryTotalMiB: 8188, memoryUsedMiB: 8188 - free, memoryFreeMiB: free, memoryReservedMiB: 0, ` +
  String.raw`temperatureC: 58 + (second % 5), utilizationPct: 40, powerW: 40 + (second % 9), powerLimitW: 115, smClockMHz: 2100, ` +
  String.raw`pstate: 'P0', throttleReasons: [] }] },
      cpu: { systemPct: 60 + (second % 13), ramTotalMiB: 32000, ramFreeMiB: 9000, server: { pid: 4242, ` +
  String.raw`cpuPct: 45 + (second % 7), rssMiB: 20000 }, heavyApps: [], topProcesses: [] },
      warnings: second % 120 < 30 ? [{ id: 'vram-headroom', level: 'warn', ` +
  String.raw`headline: 'Only ' + Math.round(free) + ' MiB of VRAM free.', reason: 'Generation may slow down.', ` +
  String.raw`fix: { label: 'Use --n-cpu-moe 34', removeArgs: ['--n-cpu-moe'], ` +
  String.raw`addArgs: ['--n-cpu-moe', '34'] } }] : [],
    }
  }
  const nextTask = () => new Promise((resolve) => { const c = new MessageChannel(); c.port1.onmessage = () => resolve(); c.port2.postMessage(0) })
  async function step() {
    const s = snapshot()
    const line = window.__dashBenchLogEvery > 0 && second % window.__dashBenchLogEvery === 0 ? ` +
  String.raw`['slot print_timing: id  0 | task ' + second + ' | n_gen = ' + second + ', tg = 33.6 t/s, tg_3s = 33.1 t/s'] : null
    second++
    emit('snapshot', s)
    if (line) emit('server:log', line)
    await nextTask()
    document.body.getBoundingClientRect()
  }
  window.__dashBench = {
    step,
    async run(count, measure) {
      const times = []
      for (let i = 0; i < count; i++) {
        const s = snapshot()
        const line = window.__dashBenchLogEvery > 0 && second % window.__dashBenchLogEvery === 0 ? ` +
  String.raw`['slot print_timing: id  0 | task ' + second + ' | n_gen = ' + second + ', tg = 33.6 t/s, tg_3s = 33.1 t/s'] : null
        second++
        const t0 = performance.now()
        emit('snapshot', s)
        if (line) emit('server:log', line)
        await nextTask()
        document.body.getBoundingClientRect()
        const t1 = performance.now()
        if (measure) times.push(t1 - t0)
        // Let the browser paint between seconds, as it would at 1 Hz.
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))
      }
      return times
    },
  }
})()
`
