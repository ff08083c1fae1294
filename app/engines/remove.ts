import { randomBytes } from 'node:crypto'
import { rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { EngineError } from './engine-error'
import { listInstalled, type InstalledEngine } from './installed'
import { enginesDir } from './layout'

/**
 * Removes an installed engine. Refuses one a profile uses unless `force`. The
 * folder is first renamed out of the list (so a half-deleted engine is never
 * listed); on Windows a running llama-server.exe makes that rename fail, and
 * the engine stays.
 */
export async function removeEngine(home: string, id: string, opts: { readonly force?: boolean } = {}): Promise<InstalledEngine> {
  const installed = await listInstalled(home)
  const engine = installed.find((e) => e.id === id)
  if (!engine)
    throw new EngineError(
      `No installed engine is called "${id}"` +
        `${installed.length ? ` (installed: ${installed.map((e) => e.id).join(', ')})` : ' (none is installed)'}: ` +
        `see llama-tray engines list.`,
      'unknown-engine',
    )
  if (engine.usedBy.length > 0 && !opts.force) {
    throw new EngineError(
      `${id} is used by the profile${engine.usedBy.length > 1 ? 's' : ''} ${engine.usedBy.map((p) => `"${p.name}"`).join(', ')}: ` +
        `point ${engine.usedBy.length > 1 ? 'them' : 'it'} at another engine first, or remove it anyway with --force.`,
      'in-use',
    )
  }
  const trash = join(enginesDir(home), `.removing-${id}-${randomBytes(4).toString('hex')}`)
  try {
    await rename(engine.dir, trash)
  } catch (err) {
    throw new EngineError(
      `${id} cannot be removed now (${(err as NodeJS.ErrnoException).code ?? String(err)}): stop the llama-server that runs it and try ` +
        `again.`,
      'in-use',
    )
  }
  await rm(trash, { recursive: true, force: true })
  return engine
}
