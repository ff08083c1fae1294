import { nativeImage, type NativeImage } from 'electron'
import { trayIconSource } from './tray-icon-files'
import type { TrayIconState } from './tray-view'

export function loadTrayIcon(dir: string, state: TrayIconState, platform: NodeJS.Platform = process.platform): NativeImage {
  const source = trayIconSource(dir, state, platform)
  if (source.kind === 'ico') return nativeImage.createFromPath(source.path)
  const image = nativeImage.createEmpty()
  for (const { path, scaleFactor } of source.images) {
    const one = nativeImage.createFromPath(path)
    if (!one.isEmpty()) image.addRepresentation({ scaleFactor, buffer: one.toPNG() })
  }
  return image
}
