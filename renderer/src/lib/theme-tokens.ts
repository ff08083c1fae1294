export { CHART_COLOR, type ChartColorToken } from './chart-colors'

/** A custom property's value on the root element now (the theme in force); `fallback` when it is not defined. */
export function readToken(name: string, fallback = '#888888'): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback
}
