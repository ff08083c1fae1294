import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { fake, fakeEvent, FakeWebContents, resetFakeElectron } from '../test/support/main/fake-electron'

vi.mock('electron', async () => (await import('../test/support/main/fake-electron')).fakeElectronModule())

const { DASHBOARD_CSP, resolveAppRequest, serveDashboard } = await import('./app-protocol')
const { guardWebContents, hardenSession } = await import('./web-security')
const { EXTERNAL_LINKS } = await import('./external-links')
const { dashboardWindowOptions, secureWebPreferences } = await import('./dashboard-window')
const { popoverWindowOptions } = await import('./tray-popover')
const { isDashboardUrl } = await import('./dashboard-url')
const { DEFAULT_WINDOW_STATE } = await import('./window-state')

const root = mkdtempSync(join(tmpdir(), 'llama-tray-bundle-'))
mkdirSync(join(root, 'assets'))
writeFileSync(join(root, 'index.html'), '<!doctype html><title>x</title>')
writeFileSync(join(root, 'assets', 'index.js'), 'console.log(1)')
writeFileSync(join(root, 'assets', 'data.bin'), 'x')
afterAll(() => rmSync(root, { recursive: true, force: true }))

beforeEach(() => resetFakeElectron())

describe('app:// URL → bundle file', () => {
  it.each([
    ['app://dashboard/', 'index.html'],
    ['app://dashboard/index.html', 'index.html'],
    ['app://dashboard/assets/index.js?v=1#x', join('assets', 'index.js')],
    ['app://dashboard/assets/a%20b.js', join('assets', 'a b.js')],
  ])('%s is served from the bundle', (url, file) => {
    expect(resolveAppRequest(url, root)).toBe(resolve(root, file))
  })

  it.each(['app://dashboard/../secret.txt', 'app://dashboard/%2e%2e/secret.txt', 'app://dashboard/assets/%2e%2e/%2e%2e/secret.txt'])(
    '%s cannot climb out: the URL parser folds the dots inside the bundle',
    (url) => {
      expect(resolveAppRequest(url, root)).toBe(resolve(root, 'secret.txt'))
    },
  )

  it.each([
    'app://dashboard/..%2fsecret.txt',
    'app://dashboard/assets/..%2f..%2fsecret.txt',
    'app://dashboard/..%5csecret.txt',
    'app://dashboard/%00index.html',
    'app://dashboard/%E0%A4%A',
    'app://other/index.html',
    'file:///etc/passwd',
    'https://dashboard/index.html',
    'not a url',
  ])('%s is refused', (url) => {
    expect(resolveAppRequest(url, root)).toBeNull()
  })
})

describe('serving the dashboard', () => {
  it('sends files with their type and the CSP header, and 404 for anything else', async () => {
    serveDashboard(fake.session.defaultSession as never, root)
    const handler = fake.session.defaultSession.protocolHandlers.get('app')!
    const page = await handler(new Request('app://dashboard/index.html'))
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('content-security-policy')).toBe(DASHBOARD_CSP)
    expect(await page.text()).toContain('<title>x</title>')
    expect((await handler(new Request('app://dashboard/assets/index.js'))).headers.get('content-type')).toBe(
      'text/javascript; charset=utf-8',
    )
    for (const url of ['app://dashboard/missing.js', 'app://dashboard/assets/data.bin', 'app://dashboard/%2e%2e/x'])
      expect((await handler(new Request(url))).status).toBe(404)
  })

  it('the policy allows scripts only from the bundle and nothing framed, posted or embedded', () => {
    const directives = new Map(DASHBOARD_CSP.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]))
    expect(directives.get('script-src')).toBe("'self'")
    expect(directives.get('object-src')).toBe("'none'")
    expect(directives.get('frame-ancestors')).toBe("'none'")
    expect(directives.get('form-action')).toBe("'none'")
    expect(DASHBOARD_CSP).not.toContain('unsafe-eval')
  })
})

describe('web contents guard', () => {
  it('blocks navigation, redirects and webviews', () => {
    const contents = new FakeWebContents()
    guardWebContents(contents as never, { packaged: true })
    for (const event of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
      const e = fakeEvent()
      contents.emit(event, e, 'https://example.com/')
      expect(e.defaultPrevented, event).toBe(true)
    }
  })

  it('denies every new window; only the fixed https links go to the browser', async () => {
    const contents = new FakeWebContents()
    guardWebContents(contents as never, { packaged: true })
    const open = (url: string) => contents.windowOpenHandler!({ url })
    for (const url of [
      ...EXTERNAL_LINKS,
      'https://evil.example/',
      'file:///C:/Windows/System32/calc.exe',
      `${EXTERNAL_LINKS[0]}/../../evil`,
      'http://github.com/ggml-org/llama.cpp',
    ]) {
      expect(open(url)).toEqual({ action: 'deny' })
    }
    await Promise.resolve()
    expect(fake.openedExternal).toEqual([...EXTERNAL_LINKS])
    expect(EXTERNAL_LINKS.every((l) => l.startsWith('https://'))).toBe(true)
  })

  it('closes DevTools in packaged builds', () => {
    const contents = new FakeWebContents()
    const closed = vi.fn()
    contents.on('devtools-closed', closed)
    guardWebContents(contents as never, { packaged: true })
    contents.emit('devtools-opened')
    expect(closed).toHaveBeenCalledOnce()
  })

  describe('permissions', () => {
    const ours = new FakeWebContents()
    const policy = { isOurs: (c: unknown) => c === ours, isDashboardUrl: (url: string) => isDashboardUrl(url, undefined, true) }
    const page = { requestingUrl: 'app://dashboard/index.html', isMainFrame: true }
    const request = (contents: unknown, permission: string, details: unknown): boolean => {
      const granted: boolean[] = []
      fake.session.defaultSession.permissionRequestHandler!(contents, permission, (g) => granted.push(g), details)
      expect(granted.length).toBe(1)
      return granted[0]!
    }
    const check = (contents: unknown, permission: string, origin: string, details: unknown): boolean =>
      fake.session.defaultSession.permissionCheckHandler!(contents, permission, origin, details)

    it("grants clipboard writes to the dashboard's own page, so its Copy buttons work", () => {
      hardenSession(fake.session.defaultSession as never, policy)
      expect(request(ours, 'clipboard-sanitized-write', page)).toBe(true)
      expect(check(ours, 'clipboard-sanitized-write', 'app://dashboard', page)).toBe(true)
      expect(check(ours, 'clipboard-sanitized-write', 'app://dashboard', { isMainFrame: true })).toBe(true)
    })

    it('refuses clipboard writes from another origin, a frame, a destroyed or foreign WebContents, or without a URL', () => {
      hardenSession(fake.session.defaultSession as never, policy)
      const foreign = new FakeWebContents()
      const dead = new FakeWebContents()
      dead.destroy()
      expect(request(foreign, 'clipboard-sanitized-write', page)).toBe(false)
      expect(request(null, 'clipboard-sanitized-write', page)).toBe(false)
      expect(request(ours, 'clipboard-sanitized-write', { requestingUrl: 'https://evil.example/', isMainFrame: true })).toBe(false)
      expect(request(ours, 'clipboard-sanitized-write', { requestingUrl: 'app://other/index.html', isMainFrame: true })).toBe(false)
      expect(request(ours, 'clipboard-sanitized-write', { ...page, isMainFrame: false })).toBe(false)
      expect(request(ours, 'clipboard-sanitized-write', undefined)).toBe(false)
      expect(check(ours, 'clipboard-sanitized-write', 'https://evil.example', { isMainFrame: true })).toBe(false)
      expect(
        check(ours, 'clipboard-sanitized-write', 'app://dashboard', { requestingUrl: 'https://evil.example/', isMainFrame: true }),
      ).toBe(false)
      expect(check(null, 'clipboard-sanitized-write', 'app://dashboard', page)).toBe(false)
      expect(check(foreign, 'clipboard-sanitized-write', 'app://dashboard', page)).toBe(false)
      expect(check(dead, 'clipboard-sanitized-write', 'app://dashboard', page)).toBe(false)
      policy.isOurs = (c: unknown) => c === ours || c === dead
      expect(request(dead, 'clipboard-sanitized-write', page)).toBe(false)
      policy.isOurs = (c: unknown) => c === ours
    })

    it('refuses every other permission, even to the dashboard (reading the clipboard included)', () => {
      hardenSession(fake.session.defaultSession as never, policy)
      for (const p of [
        'media',
        'geolocation',
        'notifications',
        'clipboard-read',
        'deprecated-sync-clipboard-read',
        'openExternal',
        'fullscreen',
        'unknown',
      ]) {
        expect(request(ours, p, page), p).toBe(false)
        expect(check(ours, p, 'app://dashboard', page), p).toBe(false)
      }
    })
  })
})

describe('window options', () => {
  it('sandbox, isolation, no Node, no webview, Auxclick off; DevTools only unpackaged', () => {
    const prefs = dashboardWindowOptions(DEFAULT_WINDOW_STATE, '/p/index.js', false).webPreferences!
    expect(prefs).toMatchObject({
      preload: '/p/index.js',
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      disableBlinkFeatures: 'Auxclick',
      devTools: true,
    })
    expect(dashboardWindowOptions(DEFAULT_WINDOW_STATE, '/p/index.js', true).webPreferences!.devTools).toBe(false)
    expect(dashboardWindowOptions(DEFAULT_WINDOW_STATE, '/p/index.js', true).show).toBe(false)
  })
})

describe('every window main creates', () => {
  const mainDir = dirname(fileURLToPath(import.meta.url))
  const sources = readdirSync(mainDir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => ({ file: f, text: readFileSync(join(mainDir, f), 'utf8') }))

  it('is built from an options function that uses secureWebPreferences (no second, weaker window config)', () => {
    const constructions = sources.flatMap(({ file, text }) =>
      [...text.matchAll(/new BrowserWindow\(([^)]*)/g)].map((m) => `${file}: ${m[1]!.split('(')[0]}`),
    )
    expect(constructions.sort()).toEqual(['dashboard-window.ts: dashboardWindowOptions', 'tray-popover.ts: popoverWindowOptions'])
    const prefs = sources.flatMap(({ file, text }) =>
      [...text.matchAll(/webPreferences:\s*([^\n]*)/g)].map((m) => `${file}: ${m[1]!.trim()}`),
    )
    expect(prefs.sort()).toEqual([
      'dashboard-window.ts: secureWebPreferences(preload, packaged),',
      'tray-popover.ts: secureWebPreferences(preload, packaged),',
    ])
  })

  it('the popover has the same secure preferences as the dashboard', () => {
    expect(popoverWindowOptions('/p/index.js', true).webPreferences).toEqual(secureWebPreferences('/p/index.js', true))
    expect(popoverWindowOptions('/p/index.js', false).webPreferences).toEqual(
      dashboardWindowOptions(DEFAULT_WINDOW_STATE, '/p/index.js', false).webPreferences,
    )
    expect(popoverWindowOptions('/p/index.js', true)).toMatchObject({ width: 360, show: false, frame: false, skipTaskbar: true })
  })
})
