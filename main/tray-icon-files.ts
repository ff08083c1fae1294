import { join } from 'node:path'
import type { TrayIconState } from './tray-view'

/** The pixel sizes scripts/make-icons.mjs draws for each state (100–200 % DPI on Windows). */
export const TRAY_ICON_SIZES = [16, 20, 24, 32] as const

export type TrayIconSource =
  | { readonly kind: 'ico'; readonly path: string }
  | { readonly kind: 'png'; readonly images: readonly { readonly path: string; readonly scaleFactor: number }[] }

/**
 * Windows takes the .ico and picks the size for the DPI itself; elsewhere the
 * PNGs become one image with a representation per scale factor (16 px = 1×).
 */
export function trayIconSource(dir: string, state: TrayIconState, platform: NodeJS.Platform): TrayIconSource {
  if (platform === 'win32') return { kind: 'ico', path: join(dir, `${state}.ico`) }
  return { kind: 'png', images: TRAY_ICON_SIZES.map((size) => ({ path: join(dir, `${state}-${size}.png`), scaleFactor: size / 16 })) }
}
