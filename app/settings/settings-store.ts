import { readFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { DEFAULT_SETTINGS, type AppSettings } from '../contract/settings'
import { writeFileAtomic } from '../lib/atomic-write'

export const SETTINGS_FILE = 'settings.json'

/** Every field optional on disk: a missing one takes its default, so new settings never break old files. */
export const SettingsSchema = z
  .object({
    vramHeadroomMiB: z.number().int().min(0).max(65_536),
    gpuTemperatureWarnC: z.number().int().min(40).max(110),
    heavyApps: z.array(z.string().min(1).max(100)).max(200),
    pollIntervalMs: z.number().int().min(250).max(60_000),
    notifications: z.boolean(),
    startWithSystem: z.boolean(),
    modelDirs: z.array(z.string().min(1).max(4096)).max(50),
    startProfileOnLaunch: z.string().min(1).max(64).nullable(),
    hardwareAcceleration: z.boolean(),
    port: z.number().int().min(1).max(65_535),
    endpoint: z.boolean(),
    switchOnRequest: z.boolean(),
    heldRequestsMax: z.number().int().min(1).max(10_000),
    heldRequestWaitS: z.number().int().min(1).max(3600),
    engineUpdateCheck: z.boolean(),
    endpointAllowedOrigins: z.array(z.string().regex(/^https?:\/\/[^/]+\/?$/i).max(2048)).max(100),
    endpointAllowedHosts: z.array(z.string().min(1).max(253)).max(100),
    endpointMaxBodyMiB: z.number().int().min(1).max(1024),
    watchdogIntervalS: z.number().min(0).max(600),
    watchdogMisses: z.number().int().min(1).max(1000),
  })
  .partial()
  .strict()

/**
 * <home>/settings.json: read once, written atomically. An unreadable file is
 * renamed aside (never deleted) and the defaults are used, with a message.
 */
export class SettingsStore {
  private queue: Promise<unknown> = Promise.resolve()

  private constructor(
    readonly path: string,
    private current: AppSettings,
    readonly messages: readonly string[],
  ) {}

  static async open(home: string): Promise<SettingsStore> {
    const path = join(home, SETTINGS_FILE)
    let text: string | null = null
    try {
      text = await readFile(path, 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
    }
    if (text === null) return new SettingsStore(path, DEFAULT_SETTINGS, [])
    let parsed: z.infer<typeof SettingsSchema> | null = null
    try {
      const result = SettingsSchema.safeParse(JSON.parse(text))
      if (result.success) parsed = result.data
    } catch {
      parsed = null
    }
    if (parsed) return new SettingsStore(path, { ...DEFAULT_SETTINGS, ...parsed }, [])
    const aside = `${path}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`
    await rename(path, aside)
    return new SettingsStore(path, DEFAULT_SETTINGS, [`${path} could not be read; it was moved to ${aside} and the defaults are used`])
  }

  get settings(): AppSettings {
    return this.current
  }

  /** Validates and saves a change; resolves to the new settings or an error message. */
  update(changes: unknown): Promise<{ ok: true; value: AppSettings } | { ok: false; error: string }> {
    const job = async (): Promise<{ ok: true; value: AppSettings } | { ok: false; error: string }> => {
      const result = SettingsSchema.safeParse(changes)
      if (!result.success) return { ok: false, error: `invalid settings: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` }
      const next = { ...this.current, ...result.data }
      await writeFileAtomic(this.path, `${JSON.stringify(next, null, 2)}\n`)
      this.current = next
      return { ok: true, value: next }
    }
    const run = this.queue.then(job, job)
    this.queue = run.catch(() => undefined)
    return run
  }
}
