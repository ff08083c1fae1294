import log from 'electron-log/main'
import { join } from 'node:path'

export const APP_LOG_FILE = 'llama-tray-app.log'

export interface AppLog {
  info(message: string): void
  warn(message: string): void
  error(message: string): void
}

/**
 * The app's own log, in `logsDir` (<home>/logs next to llama-server.log, or
 * %LOCALAPPDATA%\llama-tray\logs on Windows; rotated at 5 MB, one old file
 * kept by electron-log). Uncaught errors in main are logged and the app keeps
 * running, so the supervisor stays in charge of the server.
 */
export function setupAppLog(logsDir: string, packaged: boolean): AppLog {
  log.transports.file.resolvePathFn = () => join(logsDir, APP_LOG_FILE)
  log.transports.file.maxSize = 5 * 1024 * 1024
  log.transports.file.level = 'info'
  log.transports.console.level = packaged ? false : 'debug'
  log.errorHandler.startCatching({ showDialog: false })
  return {
    info: (message) => log.info(message),
    warn: (message) => log.warn(message),
    error: (message) => log.error(message),
  }
}
