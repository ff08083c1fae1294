// electron-builder's beforePack hook (electron-builder.yml): a Windows build gets
// koffi's Windows binary staged for win.extraResources, wherever it is built.
import { stageKoffiWin32 } from './koffi-win32.mjs'

/** electron-builder's Arch enum: only x64 is a Windows target (electron-builder.yml). */
const ARCH_X64 = 1

// electron-builder takes the export named after the hook.
export async function beforePack(context) {
  if (context.electronPlatformName !== 'win32') return
  if (context.arch !== ARCH_X64)
    throw new Error(`Windows builds are x64 only (koffi's binary is staged for win32_x64), got arch ${context.arch}`)
  const staged = stageKoffiWin32()
  console.log(`  • koffi Windows binary staged  path=${staged}`)
}
