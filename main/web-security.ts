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

/** The dashboard needs no permission (camera, notifications, clipboard…): every request and check is refused. */
export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  session.setPermissionCheckHandler(() => false)
}
