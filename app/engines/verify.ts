import { checkEngine, GpuCheckFailedError } from './check-engine'
import type { DriverCuda } from './driver-cuda'
import { EngineError } from './engine-error'
import { compareHashes, hashFolder } from './file-hashes'
import type { GpuCheck } from './gpu-check'
import { listInstalled } from './installed'
import { ENGINE_MANIFEST, readManifest } from './layout'

/** What `engines verify` found for one installed engine. */
export interface EngineVerifyReport {
  readonly id: string
  /** Both checks passed (an engine without recorded hashes passes the file check: there is nothing to compare). */
  readonly ok: boolean
  readonly files:
    | { readonly state: 'match'; readonly count: number }
    | { readonly state: 'changed'; readonly changed: readonly string[]; readonly missing: readonly string[] }
    /** Installed before hashes were recorded: not checked. */
    | { readonly state: 'unrecorded' }
  readonly gpuCheck: { readonly ok: true } | { readonly ok: false; readonly reason: string; readonly log: readonly string[] }
  /** One line: what was found and, when something failed, the fix. */
  readonly sentence: string
}

export interface VerifyOptions {
  readonly home: string
  /** One engine id; default every installed engine. */
  readonly id?: string
  readonly driver?: () => Promise<DriverCuda | null>
  readonly check?: GpuCheck
}

const names = (list: readonly string[]): string => list.slice(0, 5).join(', ') + (list.length > 5 ? ` and ${list.length - 5} more` : '')
const files = (n: number): string => `${n} file${n === 1 ? '' : 's'}`

const UNRECORDED = 'it was installed before Llama Tray recorded file hashes, so its files were not checked'

function sentence(id: string, changed: EngineVerifyReport['files'], gpu: EngineVerifyReport['gpuCheck']): string {
  const parts: string[] = []
  if (changed.state === 'match') {
    const one = 'its one file matches the hash recorded at install'
    parts.push(changed.count === 1 ? one : `its ${files(changed.count)} match the hashes recorded at install`)
  } else if (changed.state === 'unrecorded') parts.push(UNRECORDED)
  else {
    if (changed.changed.length > 0) parts.push(`${files(changed.changed.length)} changed since install (${names(changed.changed)})`)
    if (changed.missing.length > 0) parts.push(`${files(changed.missing.length)} missing (${names(changed.missing)})`)
  }
  parts.push(gpu.ok ? 'the GPU check passed' : `the GPU check failed (${gpu.reason})`)
  const fixes: string[] = []
  if (changed.state === 'changed') fixes.push(`reinstall it (llama-tray engines remove ${id} --force, then llama-tray engines install)`)
  if (!gpu.ok) fixes.push('update the GPU driver, or install the build that runs here with llama-tray engines install --backend auto')
  const said = `${id}: ${parts.join('; ')}`
  return fixes.length === 0 ? `${said}.` : `${said}: ${fixes.join(', and ')}.`
}

/**
 * Re-runs the GPU check (ignoring its cache, and storing the new verdict) on
 * one or every installed engine, and compares its files with the SHA-256
 * hashes recorded in its manifest at install.
 */
export async function verifyEngines(opts: VerifyOptions): Promise<EngineVerifyReport[]> {
  const installed = await listInstalled(opts.home)
  const chosen = opts.id === undefined ? installed : installed.filter((e) => e.id === opts.id)
  if (opts.id !== undefined && chosen.length === 0) {
    const known = installed.length ? ` (installed: ${installed.map((e) => e.id).join(', ')})` : ' (none is installed)'
    throw new EngineError(`No installed engine is called "${opts.id}"${known}: see llama-tray engines list.`, 'unknown-engine')
  }
  const readDriver = opts.driver ?? (async () => null)
  const driver = chosen.some((e) => e.backend !== 'cpu') ? await readDriver() : null
  const reports: EngineVerifyReport[] = []
  for (const engine of chosen) {
    const manifest = await readManifest(engine.dir)
    const now = await hashFolder(engine.dir, [ENGINE_MANIFEST])
    let fileState: EngineVerifyReport['files'] = { state: 'unrecorded' }
    if (manifest?.files) {
      const drift = compareHashes(manifest.files, now)
      const same = drift.changed.length + drift.missing.length === 0
      fileState = same ? { state: 'match', count: Object.keys(manifest.files).length } : { state: 'changed', ...drift }
    }
    let gpuCheck: EngineVerifyReport['gpuCheck'] = { ok: true }
    try {
      await checkEngine({
        home: opts.home,
        tag: engine.tag,
        backend: engine.backend,
        binary: engine.path,
        binarySha256: now[manifest?.binary ?? ''] ?? '',
        driverVersion: driver?.driverVersion ?? null,
        ignoreCache: true,
        ...(opts.check ? { check: opts.check } : {}),
      })
    } catch (err) {
      if (!(err instanceof GpuCheckFailedError)) throw err
      gpuCheck = { ok: false, reason: err.failed.reason, log: err.failed.log }
    }
    const ok = fileState.state !== 'changed' && gpuCheck.ok
    reports.push({ id: engine.id, ok, files: fileState, gpuCheck, sentence: sentence(engine.id, fileState, gpuCheck) })
  }
  return reports
}
