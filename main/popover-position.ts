export interface Rect {
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
}

export interface Size {
  readonly width: number
  readonly height: number
}

/** Space kept between the popover, the taskbar and the screen's edges. */
const MARGIN = 8

/**
 * Where the tray popover goes: next to the tray icon, on the side away from the
 * taskbar (above it for a bottom taskbar, beside it for a side one), always
 * inside the display's work area (a margin from its edges where it fits). A tray that reports no bounds (some Linux
 * desktops) puts it in the work area's bottom-right corner.
 */
export function popoverPosition(tray: Rect, size: Size, workArea: Rect): { x: number; y: number } {
  const right = workArea.x + workArea.width
  const bottom = workArea.y + workArea.height
  const cx = tray.x + tray.width / 2
  const cy = tray.y + tray.height / 2
  let x: number
  let y: number
  if (tray.width <= 0 || tray.height <= 0) {
    x = right - size.width - MARGIN
    y = bottom - size.height - MARGIN
  } else if (cy >= bottom) {
    x = cx - size.width / 2
    y = bottom - size.height - MARGIN
  } else if (cy < workArea.y) {
    x = cx - size.width / 2
    y = workArea.y + MARGIN
  } else if (cx < workArea.x) {
    x = workArea.x + MARGIN
    y = cy - size.height / 2
  } else if (cx >= right) {
    x = right - size.width - MARGIN
    y = cy - size.height / 2
  } else {
    // Inside the work area (Windows' overflow flyout): above the icon if it fits, else below.
    x = cx - size.width / 2
    y = tray.y - size.height - MARGIN >= workArea.y ? tray.y - size.height - MARGIN : tray.y + tray.height + MARGIN
  }
  return {
    x: Math.round(clamp(x, workArea.x + MARGIN, right - size.width - MARGIN)),
    y: Math.round(clamp(y, workArea.y + MARGIN, bottom - size.height - MARGIN)),
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(value, Math.max(min, max)))
}
