/**
 * Who the app is to the OS. APP_ID must equal electron-builder's appId: the
 * NSIS installer stamps it on the Start Menu shortcut as the AppUserModelID,
 * and Windows shows toasts only for an AUMID that a shortcut carries.
 */
export const APP_ID = 'dev.llamatray.app'
export const PRODUCT_NAME = 'Llama Tray'
/** Passed by the login item: start in the tray without showing the dashboard. */
export const HIDDEN_ARG = '--hidden'

/**
 * True in electron-builder's portable build, which sets these variables before
 * it runs the extracted app. It has no Start Menu shortcut carrying APP_ID, so
 * Windows drops its toasts without an error.
 */
export function isPortableBuild(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.PORTABLE_EXECUTABLE_FILE || env.PORTABLE_EXECUTABLE_DIR)
}
