// The colour tokens the charts read (defined in styles.css for light and dark):
// the charts follow the theme instead of carrying colours of their own.

export const CHART_COLOR = {
  tokens: '--chart-tokens',
  vramUsed: '--chart-vram-used',
  vramFree: '--chart-vram-free',
  cpuSystem: '--chart-cpu-system',
  cpuServer: '--chart-cpu-server',
  gpuTemperature: '--chart-gpu-temperature',
  gpuPower: '--chart-gpu-power',
  headroom: '--chart-headroom',
} as const

export type ChartColorToken = (typeof CHART_COLOR)[keyof typeof CHART_COLOR]
