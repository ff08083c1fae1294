import { useCallback } from 'react'
import type uPlot from 'uplot'
import { CHART_COLOR, readToken } from '../lib/theme-tokens'
import { histories } from '../stores/chart-histories'
import { useSettingsStore } from '../stores/settings-store'
import { useSnapshotStore } from '../stores/snapshot-store'
import { type ChartSeries, UPlotChart } from './UPlotChart'

// Module constants: a new array per render would rebuild the plots. Colours are
// the theme's tokens (styles.css), read when a plot is built for the theme in force.
const TOKENS: readonly ChartSeries[] = [{ label: 'generation', color: CHART_COLOR.tokens, unit: 'tok/s', fill: true }]
const VRAM: readonly ChartSeries[] = [
  { label: 'used', color: CHART_COLOR.vramUsed, unit: 'GiB', fill: true },
  { label: 'free', color: CHART_COLOR.vramFree, unit: 'GiB' },
]
const CPU: readonly ChartSeries[] = [
  { label: 'system', color: CHART_COLOR.cpuSystem, unit: '%' },
  { label: 'llama-server', color: CHART_COLOR.cpuServer, unit: '%', fill: true },
]
const GPU: readonly ChartSeries[] = [
  { label: 'temperature', color: CHART_COLOR.gpuTemperature, unit: '°C' },
  { label: 'power', color: CHART_COLOR.gpuPower, unit: 'W', scale: 'w' },
]
const PERCENT: readonly [number, number] = [0, 100]

export function Charts(): React.JSX.Element {
  const headroomMiB = useSettingsStore((s) => s.settings?.vramHeadroomMiB ?? null)
  // Without GPU data the GPU charts would be empty frames: the VRAM tile says why instead.
  const hasGpu = useSnapshotStore((s) => s.snapshot?.gpu?.available === true)
  // The headroom line on the VRAM chart: free VRAM under it is the driver's danger zone.
  const drawHeadroom = useCallback(
    (u: uPlot) => {
      if (headroomMiB === null) return
      const y = u.valToPos(headroomMiB / 1024, 'y', true)
      if (!Number.isFinite(y) || y < u.bbox.top || y > u.bbox.top + u.bbox.height) return
      const ctx = u.ctx
      const colour = readToken(CHART_COLOR.headroom)
      ctx.save()
      ctx.strokeStyle = colour
      ctx.setLineDash([6, 4])
      ctx.lineWidth = 1.5 * devicePixelRatio
      ctx.beginPath()
      ctx.moveTo(u.bbox.left, y)
      ctx.lineTo(u.bbox.left + u.bbox.width, y)
      ctx.stroke()
      ctx.fillStyle = colour
      ctx.font = `${11 * devicePixelRatio}px ${readToken('--font-ui', 'system-ui')}`
      const label = `headroom ${(headroomMiB / 1024).toFixed(1)} GiB`
      ctx.textAlign = 'right'
      ctx.fillText(label, u.bbox.left + u.bbox.width - 4 * devicePixelRatio, y - 4 * devicePixelRatio)
      ctx.restore()
    },
    [headroomMiB],
  )
  return (
    <section className="charts" aria-label="Live charts">
      <UPlotChart testId="chart-tokens" title="Generation (tok/s)" history={histories.tokens} series={TOKENS} />
      {hasGpu && <UPlotChart testId="chart-vram" title="VRAM (GiB)" history={histories.vram} series={VRAM} draw={drawHeadroom} />}
      <UPlotChart testId="chart-cpu" title="CPU (% of the whole machine)" history={histories.cpu} series={CPU} range={PERCENT} />
      {hasGpu && <UPlotChart testId="chart-gpu" title="GPU temperature (°C) and power (W)" history={histories.gpu} series={GPU} />}
    </section>
  )
}
