import { protocol, type Session } from 'electron'
import { readFile } from 'node:fs/promises'
import { extname, resolve, sep } from 'node:path'
import { APP_HOST, APP_SCHEME } from './dashboard-url'

/**
 * The dashboard's policy, sent as a response header on every production load
 * (renderer/index.html carries the same policy as a <meta> tag; a browser
 * enforces both). Inline styles are allowed because React and the charts set
 * style attributes; scripts come only from the bundle.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

const MIME: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
}

/** Must run before the app is ready: app:// behaves like https (secure, standard origin). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }])
}

/**
 * The file an app:// URL names inside the bundle folder, or null for anything
 * else: another host, an encoded separator or NUL, or a path that climbs out.
 */
export function resolveAppRequest(url: string, root: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return null
  let path: string
  try {
    path = decodeURIComponent(parsed.pathname)
  } catch {
    return null
  }
  if (path.includes('\0') || path.includes('\\') || path.split('/').includes('..')) return null
  if (path === '/' || path === '') path = '/index.html'
  const base = resolve(root)
  const file = resolve(base, `.${path}`)
  return file.startsWith(base + sep) ? file : null
}

/** Serves the built dashboard from `root` on app://dashboard/, with the CSP header. */
export function serveDashboard(session: Session, root: string): void {
  session.protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppRequest(request.url, root)
    const type = file ? MIME[extname(file).toLowerCase()] : undefined
    if (!file || !type) return new Response('Not found', { status: 404 })
    try {
      const body = await readFile(file)
      return new Response(body, {
        status: 200,
        headers: { 'Content-Type': type, 'Content-Security-Policy': DASHBOARD_CSP, 'X-Content-Type-Options': 'nosniff' },
      })
    } catch {
      return new Response('Not found', { status: 404 })
    }
  })
}
