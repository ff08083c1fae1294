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

const names = (list: readonly string[]): string => `${list.slice(0, 5).join(', ')}${list.length > 5 ? ` and ${list.length - 5} more` : ''}`

function sentence(id: string, files: EngineVerifyReport['files'], gpu: EngineVerifyReport['gpuCheck']): string {
  const parts: string[] = []
  if (files.state === 'match') parts.push(`its ${files.count} files match the hashes recorded at install`)
  else if (files.state === 'unrecorded') parts.push('it was installed before Llama Tray recorded file hashes, so its files were not checked')
  else {
    if (files.changed.length > 0) parts.push(`${files.changed.length} file${files.changed.length > 1 ? 's' : ''} changed since install (${names(files.changed)})`)
    if (files.missing.length > 0) parts.push(`${files.missing.length} file${files.missing.length > 1 ? 's are' : ' is'} missing (${names(files.missing)})`)
  }
  parts.push(gpu.ok ? 'the GPU check passed' : `the GPU check failed (${gpu.reason})`)
  const fixes: string[] = []
  if (files.state === 'changed') fixes.push(`reinstall it (llama-tray engines remove ${id} --force, then llama-tray engines install)`)
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
  const driver = chosen.some((e) => e.backend !== 'cpu') ? await (opts.driver ?? (async () => null))() : null
  const reports: EngineVerifyReport[] = []
  for (const engine of chosen) {
    const manifest = await readManifest(engine.dir)
    const now = await hashFolder(engine.dir, [ENGINE_MANIFEST])
    let files: EngineVerifyReport['files'] = { state: 'unrecorded' }
    if (manifest?.files) {
      const drift = compareHashes(manifest.files, now)
      files = drift.changed.length + drift.missing.length === 0 ? { state: 'match', count: Object.keys(manifest.files).length } : { state: 'changed', ...drift }
    }
    let gpuCheck: EngineVerifyReport['gpuCheck'] = { ok: true }
    try {
      const binary = manifest?.binary ?? ''
      await checkEngine({ home: opts.home, tag: engine.tag, backend: engine.backend, binary: engine.path, binarySha256: now[binary] ?? '', driverVersion: driver?.driverVersion ?? null, ignoreCache: true, ...(opts.check ? { check: opts.check } : {}) })
    } catch (err) {
      if (!(err instanceof GpuCheckFailedError)) throw err
      gpuCheck = { ok: false, reason: err.failed.reason, log: err.failed.log }
    }
    reports.push({ id: engine.id, ok: files.state !== 'changed' && gpuCheck.ok, files, gpuCheck, sentence: sentence(engine.id, files, gpuCheck) })
  }
  return reports
}
