// Run by Windows Node under Wine (bundled by test/windows/power-bindings.test.ts beside the staged CLI, for its
// koffi): Llama Tray's own Win32 power bindings, as the CLI and the app use them, answer once as JSON.
import { WindowsDevicePower } from '../../../app/platform/win32/device-power'
import { WindowsSystemPower } from '../../../app/platform/win32/system-power'

function attempt<T>(read: () => T): { readonly value: T } | { readonly threw: string } {
  try {
    return { value: read() }
  } catch (err) {
    return { threw: err instanceof Error ? err.message : String(err) }
  }
}

const system = new WindowsSystemPower()
const device = new WindowsDevicePower()
process.stdout.write(
  `${JSON.stringify({
    systemPower: { problem: system.problem, read: attempt(() => system.read()) },
    devicePower: { problem: device.problem, read: attempt(() => device.read()) },
  })}\n`,
)
