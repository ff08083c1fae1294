import { z } from 'zod'
import { FIELD_KEYS } from './flag-fields'

/**
 * The profiles file (<home>/profiles.json) and one profile, versioned.
 * Bump PROFILES_FILE_VERSION when the shape changes and add a step to
 * MIGRATIONS that turns the previous version into the new one.
 */
export const PROFILES_FILE_VERSION = 1

const intValue = z.number().int()
const numberValue = z.number().finite()

/** Typed settings (model and draft model live at the top of the profile). */
export const ProfileSettingsSchema = z
  .object({
    gpuLayers: z.string(),
    nCpuMoe: intValue,
    cpuMoe: z.boolean(),
    ctxSize: intValue,
    parallel: intValue,
    cacheTypeK: z.string(),
    cacheTypeV: z.string(),
    flashAttn: z.string(),
    loadMode: z.string(),
    noMmap: z.boolean(),
    mlock: z.boolean(),
    draftGpuLayers: z.string(),
    specType: z.string(),
    draftMax: intValue,
    draftMin: intValue,
    reasoning: z.string(),
    reasoningBudget: intValue,
    temp: numberValue,
    topK: intValue,
    topP: numberValue,
    minP: numberValue,
    presencePenalty: numberValue,
    host: z.string(),
    port: intValue.min(0).max(65535),
    apiKey: z.string(),
    apiKeyFile: z.string().min(1),
  })
  .partial()
  .strict()

/**
 * Where each argument came from when the profile was imported, so that the
 * argument vector is written back exactly as pasted (order, spelling, `=`).
 * A field slot names the flag spelling; an extra slot takes the next N extra arguments.
 */
export const ArgSlotSchema = z.union([
  z.object({ field: z.enum(FIELD_KEYS), flag: z.string(), joined: z.boolean().optional() }).strict(),
  z.object({ extra: z.number().int().min(1) }).strict(),
])

export const PROFILE_ID = /^[a-z0-9][a-z0-9._-]{0,63}$/

export const ProfileSchema = z
  .object({
    id: z.string().regex(PROFILE_ID, 'an id is 1-64 lowercase letters, digits, ".", "_" or "-"'),
    name: z.string().min(1),
    /** The llama-server executable ('' until chosen). */
    binary: z.string(),
    /** The model file ('' until chosen, or when the model comes from extra arguments such as -hf). */
    model: z.string(),
    draftModel: z.string().min(1).optional(),
    settings: ProfileSettingsSchema,
    /** Everything else, passed through untouched (fork-only flags such as -vhad, --merge-qkv). */
    extraArgs: z.array(z.string()),
    argOrder: z.array(ArgSlotSchema).optional(),
    env: z.record(z.string(), z.string()),
    notes: z.string(),
    /** Runs beside the active profile as its own server (absent: not pinned). */
    pinned: z.boolean().optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .strict()

export const ProfilesFileSchema = z
  .object({
    version: z.literal(PROFILES_FILE_VERSION),
    activeProfileId: z.string().nullable(),
    /** The profile that was active before the last switch (one click back after a failed switch). */
    previousProfileId: z.string().nullable().optional(),
    profiles: z.array(ProfileSchema),
  })
  .strict()
  .superRefine((file, ctx) => {
    const seen = new Set<string>()
    for (const p of file.profiles) {
      if (seen.has(p.id)) ctx.addIssue({ code: 'custom', message: `duplicate profile id "${p.id}"`, path: ['profiles'] })
      seen.add(p.id)
    }
  })

export type ProfileSettings = z.infer<typeof ProfileSettingsSchema>
export type ArgSlot = z.infer<typeof ArgSlotSchema>
export type Profile = z.infer<typeof ProfileSchema>
export type ProfilesFile = z.infer<typeof ProfilesFileSchema>

export function emptyProfilesFile(): ProfilesFile {
  return { version: PROFILES_FILE_VERSION, activeProfileId: null, previousProfileId: null, profiles: [] }
}

/** Step n turns a version-n file into a version n+1 file. None yet: version 1 is the first. */
export const MIGRATIONS: Readonly<Record<number, (old: Record<string, unknown>) => Record<string, unknown>>> = {}

export type MigrationResult =
  | { readonly kind: 'current'; readonly data: unknown; readonly migratedFrom: number | null }
  | { readonly kind: 'newer'; readonly version: number }
  | { readonly kind: 'invalid'; readonly reason: string }

/** Brings parsed JSON up to the current version (validation comes after). */
export function migrateProfilesFile(raw: unknown, migrations = MIGRATIONS, current = PROFILES_FILE_VERSION): MigrationResult {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { kind: 'invalid', reason: 'not a JSON object' }
  let data = raw as Record<string, unknown>
  const version = data.version
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    return { kind: 'invalid', reason: 'no valid "version" number' }
  if (version > current) return { kind: 'newer', version }
  let v = version
  while (v < current) {
    const step = migrations[v]
    if (!step) return { kind: 'invalid', reason: `no migration from version ${v}` }
    data = { ...step(data), version: v + 1 }
    v++
  }
  return { kind: 'current', data, migratedFrom: version === current ? null : version }
}
