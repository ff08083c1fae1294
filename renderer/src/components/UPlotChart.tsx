import { useEffect, useRef } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import type { SeriesHistory } from '../lib/series-history'
import { formatAxisNumber } from '../lib/format'
import { type ChartColorToken, readToken } from '../lib/theme-tokens'
import { useSnapshotStore } from '../stores/snapshot-store'
import { useColorScheme } from './use-color-scheme'

export interface ChartSeries {
  readonly label: string
  /** A colour token of the theme (styles.css), read when the plot is built. */
  readonly color: ChartColorToken
  readonly unit: string
  /** Which y scale ('y' by default); a second scale gets its own axis on the right. */
  readonly scale?: string
  readonly fill?: boolean
}

export interface ChartProps {
  readonly title: string
  readonly history: SeriesHistory
  readonly series: readonly ChartSeries[]
  /** Fixed y range for the first scale (percentages), else auto from 0. */
  readonly range?: readonly [number, number]
  /** Extra drawing after each redraw (e.g. a threshold line). */
  readonly draw?: (u: uPlot) => void
  /** The x axis's labels: a clock (the live charts, the default) or dates (the History view's days). */
  readonly xLabels?: 'clock' | 'day'
  readonly testId: string
}

const HEIGHT = 200

/** One-line clock labels (uPlot's default adds a date line that the small charts cannot afford). */
function clockLabel(sec: number): string {
  const d = new Date(sec * 1000)
  const hm = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`
  return d.getSeconds() ? `${hm}:${String(d.getSeconds()).padStart(2, '0')}` : hm
}

/** A date label, MM-DD (the History view's days). */
function dayLabel(sec: number): string {
  const d = new Date(sec * 1000)
  return `${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

/**
 * One uPlot chart over a bounded history. The plot is created once per theme;
 * each pushed snapshot only calls setData on the same arrays (no React render,
 * no layout change: the canvas keeps its size).
 */
export function UPlotChart({ title, history, series, range, draw, xLabels = 'clock', testId }: ChartProps): React.JSX.Element {
  const box = useRef<HTMLDivElement>(null)
  const drawRef = useRef(draw)
  drawRef.current = draw
  const scheme = useColorScheme()

  useEffect(() => {
    const el = box.current
    if (!el) return
    const axisColor = readToken('--fg-muted')
    const gridColor = readToken('--grid')
    const scales = [...new Set(series.map((s) => s.scale ?? 'y'))]
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height: HEIGHT,
      legend: { show: true, live: false },
      cursor: { show: true, drag: { x: false, y: false } },
      scales: {
        x: { time: true },
        ...Object.fromEntries(
          scales.map((k, i) => [
            k,
            {
              range: (_u: uPlot, _min: number, max: number): uPlot.Range.MinMax =>
                i === 0 && range ? [range[0], range[1]] : [0, max > 0 ? max * 1.1 : 1],
            },
          ]),
        ),
      },
      axes: [
        {
          stroke: axisColor,
          grid: { stroke: gridColor, width: 1 },
          ticks: { stroke: gridColor },
          size: 28,
          space: 80,
          values: (_u: uPlot, vals: number[]) => vals.map(xLabels === 'day' ? dayLabel : clockLabel),
        },
        ...scales.map((k, i) => ({
          scale: k,
          side: i === 0 ? 3 : 1,
          stroke: axisColor,
          grid: { show: i === 0, stroke: gridColor, width: 1 },
          ticks: { stroke: gridColor },
          size: 46,
          values: (_u: uPlot, vals: number[]) => vals.map(formatAxisNumber),
        })),
      ],
      series: [
        {},
        ...series.map((s) => ({
          label: s.label,
          scale: s.scale ?? 'y',
          stroke: readToken(s.color),
          width: 1.5,
          fill: s.fill ? `${readToken(s.color)}22` : undefined,
          spanGaps: false,
          points: { show: false },
          value: (_u: uPlot, v: number | null) => (v === null ? '–' : `${+v.toFixed(1)} ${s.unit}`),
        })),
      ],
      hooks: { draw: [(u) => drawRef.current?.(u)] },
    }
    const plot = new uPlot(opts, history.data(), el)
    let shown = history.length
    // The chart's first point (epoch s): a window opened mid-run starts from the core's past points.
    const since = (): void => void (el.dataset.since = String(history.x[0] ?? ''))
    since()
    const unsubscribe = useSnapshotStore.subscribe(() => {
      // Same arrays, new contents: uPlot redraws on the next microtask.
      plot.setData(history.data())
      if ((history.length === 0) !== (shown === 0)) el.dataset.empty = history.length === 0 ? 'true' : 'false'
      shown = history.length
      since()
    })
    const resize = new ResizeObserver(() => {
      const width = Math.max(200, el.clientWidth)
      if (width !== plot.width) plot.setSize({ width, height: HEIGHT })
    })
    resize.observe(el)
    return () => {
      unsubscribe()
      resize.disconnect()
      plot.destroy()
    }
  }, [history, series, range, scheme, xLabels])

  return (
    <figure className="chart" data-testid={testId}>
      <figcaption>{title}</figcaption>
      <div ref={box} className="chart-canvas" />
    </figure>
  )
}
