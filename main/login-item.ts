import { PRODUCT_NAME, HIDDEN_ARG } from './app-identity'

export interface LoginItemApp {
  setLoginItemSettings(settings: Electron.Settings): void
}

/**
 * Registers or removes the login item. Called only when the user toggles the
 * setting: calling it at every start would re-enable an entry the user turned
 * off in Task Manager. The name is fixed so the Run entry never doubles; the
 * portable build registers its own exe, not the copy extracted to %TEMP%.
 */
export function applyLoginItem(
  app: LoginItemApp,
  openAtLogin: boolean,
  env: NodeJS.ProcessEnv = process.env,
  execPath = process.execPath,
): void {
  app.setLoginItemSettings({ openAtLogin, name: PRODUCT_NAME, path: env.PORTABLE_EXECUTABLE_FILE ?? execPath, args: [HIDDEN_ARG] })
}
