import { shell, type Session, type WebContents } from 'electron'
import { isAllowedExternalLink } from './external-links'

/**
 * Applied to every WebContents the app ever creates (app 'web-contents-created'):
 * the dashboard is a single page, so it never navigates, never opens windows
 * (allow-listed https links go to the user's browser instead), never embeds a
 * <webview>, and has no DevTools in packaged builds.
 */
export function guardWebContents(contents: WebContents, options: { readonly packaged: boolean }): void {
  contents.on('will-navigate', (event) => event.preventDefault())
  contents.on('will-redirect', (event) => event.preventDefault())
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalLink(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
  if (options.packaged) contents.on('devtools-opened', () => contents.closeDevTools())
}

/** Who may be granted a permission: only windows main created, showing the dashboard's own page. */
export interface PermissionPolicy {
  /** True for the WebContents of a window main created (the IPC sender allow-list). */
  readonly isOurs: (contents: WebContents) => boolean
  readonly isDashboardUrl: (url: string) => boolean
}

/**
 * The one permission the dashboard needs: writing text to the clipboard (its
 * Copy buttons call navigator.clipboard.writeText, which Chromium checks as
 * 'clipboard-sanitized-write'). Reading the clipboard stays refused.
 */
const DASHBOARD_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write'])

export function isPermissionGranted(
  permission: string,
  contents: WebContents | null,
  requestingUrl: string | undefined,
  isMainFrame: boolean | undefined,
  policy: PermissionPolicy,
): boolean {
  if (!DASHBOARD_PERMISSIONS.has(permission)) return false
  if (!contents || contents.isDestroyed() || !policy.isOurs(contents)) return false
  return isMainFrame === true && requestingUrl !== undefined && policy.isDashboardUrl(requestingUrl)
}

/** Every permission request and check is refused except clipboard writes from the dashboard page itself. */
export function hardenSession(session: Session, policy: PermissionPolicy): void {
  session.setPermissionRequestHandler((contents, permission, callback, details) =>
    callback(isPermissionGranted(permission, contents, details?.requestingUrl, details?.isMainFrame, policy)),
  )
  // A check names the origin ("app://dashboard"); the URL, where Chromium gives it, must be the dashboard's too.
  session.setPermissionCheckHandler((contents, permission, requestingOrigin, details) => {
    const url = details?.requestingUrl
    if (url !== undefined && !policy.isDashboardUrl(url)) return false
    return isPermissionGranted(permission, contents, requestingOrigin, details?.isMainFrame, policy)
  })
}
