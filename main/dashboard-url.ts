/**
 * Where the dashboard is loaded from: app://dashboard/ in production (served
 * by main/app-protocol.ts, never file://), or electron-vite's dev server while
 * developing. The dev URL is honoured only in unpackaged runs, so an
 * environment variable cannot point an installed app at another page.
 */
export const APP_SCHEME = 'app'
export const APP_HOST = 'dashboard'
export const PRODUCTION_ENTRY = `${APP_SCHEME}://${APP_HOST}/index.html`

export function dashboardEntryUrl(devUrl: string | undefined, packaged: boolean): string {
  return !packaged && devUrl ? devUrl : PRODUCTION_ENTRY
}

/** True for a page of the dashboard itself (the only origin that may call main). */
export function isDashboardUrl(url: string, devUrl: string | undefined, packaged: boolean): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  if (parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST) return true
  if (packaged || !devUrl) return false
  try {
    const dev = new URL(devUrl)
    return parsed.protocol === dev.protocol && parsed.host === dev.host
  } catch {
    return false
  }
}
