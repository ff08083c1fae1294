import type { BenchDeps } from '../bench/session'
import { gateProfile } from '../profiles/profile-gate'
import { ProfileStore } from '../profiles/store'
import { type BackendChoice } from './backends'
import { EngineError } from './engine-error'
import { installEngine, type InstallOptions, type InstalledEngineInfo } from './install'
import { isInside, listInstalled } from './installed'
import { runSafetyGate, type GateOptions, type GateVerdict } from './safety-gate'
import { changeUpdateState, readUpdateState } from './update-state'

export interface UpdateReport {
  readonly profileId: string
  readonly profileName: string
  readonly from: string
  readonly to: string
  readonly engine: InstalledEngineInfo
  readonly adopted: boolean
  readonly verdict: GateVerdict | null
  /** One line for people: what happened and why. */
  readonly summary: string
}

export interface UpdateOptions extends Omit<InstallOptions, 'home' | 'backend'> {
  /** Default: the backend of the engine the profile runs now (when it is one of ours), else auto. */
  readonly backend?: BackendChoice
  readonly gate: GateOptions
}

/**
 * `engines update <profile>`: installs the newest release next to the
 * profile's engine, runs the safety gate (the profile's bench on old and new,
 * alternated) and points the profile at the new engine only when it loads and
 * is not slower. The old engine stays installed for rollback; a running server
 * keeps its binary until it is restarted.
 */
export async function updateProfileEngine(deps: BenchDeps, profileRef: string, opts: UpdateOptions): Promise<UpdateReport> {
  const store = await ProfileStore.open(deps.home)
  const profile = store.find(profileRef)
  if (!profile)
    throw new EngineError(
      `No profile "${profileRef}" (known: ${store.file.profiles.map((p) => p.name).join(', ') || 'none'}): name one of llama-tray ` +
        `profiles list.`,
      'unknown-engine',
    )
  const current = (await listInstalled(deps.home)).find((e) => isInside(e.dir, profile.binary))
  const engine = await installEngine({ ...opts, home: deps.home, backend: opts.backend ?? current?.backend ?? 'auto' })
  const base = { profileId: profile.id, profileName: profile.name, from: profile.binary, to: engine.path, engine }
  if (engine.path === profile.binary)
    return {
      ...base,
      adopted: false,
      verdict: null,
      summary: `"${profile.name}" already runs llama.cpp ${engine.tag} (${engine.id}), the newest release.`,
    }
  const verdict = await runSafetyGate(deps, profile.id, engine.path, opts.gate)
  if (!verdict.adopt)
    return {
      ...base,
      adopted: false,
      verdict,
      summary:
        `"${profile.name}" stays on its engine: ` +
        `${verdict.reasons.filter((r) => /slower|no |rejects|did not/.test(r)).join('; ') || verdict.reasons.join('; ')}. ` +
        `${engine.id} ` +
        `stays installed (llama-tray engines remove ${engine.id}).`,
    }
  // The new engine may spell flags differently (mainline removed --no-mmap): the gate writes its spelling.
  await store.upsert((await gateProfile({ ...profile, binary: engine.path }, { home: deps.home })).profile)
  await changeUpdateState(deps.home, (s) => {
    s.rollbacks[profile.id] = { previousBinary: profile.binary, updatedBinary: engine.path, at: new Date().toISOString() }
  })
  return {
    ...base,
    adopted: true,
    verdict,
    summary:
      `"${profile.name}" now runs llama.cpp ${engine.tag} (${engine.id}): ${verdict.reasons.join('; ')}. Undo with llama-tray engines ` +
      `rollback ${profile.id}.`,
  }
}

/** Points a profile back at the binary it had before its last engine update. */
export async function rollbackProfileEngine(
  home: string,
  profileRef: string,
): Promise<{ profileId: string; binary: string; from: string }> {
  const store = await ProfileStore.open(home)
  const profile = store.find(profileRef)
  if (!profile) throw new EngineError(`No profile "${profileRef}": name one of llama-tray profiles list.`, 'unknown-engine')
  const entry = (await readUpdateState(home)).rollbacks[profile.id]
  if (!entry) throw new EngineError(`"${profile.name}" has no engine update to roll back.`, 'unknown-engine')
  if (profile.binary !== entry.updatedBinary)
    throw new EngineError(
      `"${profile.name}" was changed since its engine update (it runs ${profile.binary}): set its binary by hand instead.`,
      'unknown-engine',
    )
  await store.upsert((await gateProfile({ ...profile, binary: entry.previousBinary }, { home })).profile)
  await changeUpdateState(home, (s) => {
    delete s.rollbacks[profile.id]
  })
  return { profileId: profile.id, binary: entry.previousBinary, from: entry.updatedBinary }
}
