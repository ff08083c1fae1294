import { z } from 'zod'
import { MODEL_REF } from '../app/contract/models'
import type { CommandChannels, CommandName } from '../app/contract/commands'
import { BACKEND_CHOICES, ENGINE_BACKENDS, type BackendChoice } from '../app/contract/engines'
import { ProfileEditSchema } from '../app/profiles/profile-edit-schema'
import { PROFILE_ID } from '../app/profiles/schema'
import { SettingsSchema } from '../app/settings/settings-store'

/**
 * The arguments each command channel accepts, as a zod tuple: the renderer is
 * untrusted, so nothing reaches the core that is not in this table. These are
 * shape and size limits; the core still validates meaning (a profile exists, a
 * setting is in range). Profiles are named by id, never by path or command.
 */
export type IpcArgsSchemas = { readonly [C in CommandName]: z.ZodType<Parameters<CommandChannels[C]>> }

const profileId = z.string().regex(PROFILE_ID, 'a profile id is 1-64 lowercase letters, digits, ".", "_" or "-"')
const warningId = z.string().min(1).max(200)
/** A muted warning: a rule id or a finding ("lint.duplicate-flag:-vhad"), without the profile. */
const muteKey = z
  .string()
  .min(1)
  .max(200)
  .regex(/^(lint|live)\.\S+$/, 'a mute key is a rule or finding id such as "live.heavy-apps"')
const none = z.tuple([])
/** A llama.cpp release tag (b7000, v0.5.0) and an installed engine's id (<tag>-<backend>): never a path. */
const engineTag = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'a release tag is like b7000 or v0.5.0')
  .refine((t) => !t.includes('..'), 'a release tag has no ".."')
const engineId = z
  .string()
  .regex(
    new RegExp(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}-(${ENGINE_BACKENDS.join('|')})$`),
    'an engine id is <tag>-<backend>, as engines:list names it',
  )
  .refine((t) => !t.includes('..'), 'an engine id has no ".."')
const installOptions = z
  .object({ backend: z.enum(BACKEND_CHOICES as [BackendChoice, ...BackendChoice[]]), tag: engineTag.nullable() })
  .strict()
/** Discovery ids as main issues them ("b-" or "m-" and 10 hex digits): never a path. */
const discoveredId = z.string().regex(/^[bm]-[0-9a-f]{10}$/, 'a discovered item is named by its id from profiles:discover')

export const IPC_ARGS: IpcArgsSchemas = {
  'server:start': z.tuple([profileId]),
  'server:stop': none,
  'server:switch-now': none,
  'server:restart': none,
  'server:status': none,
  'server:logs': z.tuple([z.number().int().min(1).max(100_000)]),
  'server:pinned-logs': z.tuple([profileId, z.number().int().min(1).max(100_000)]),
  'snapshot:latest': none,
  'generation:history': none,
  'history:overview': z.tuple([
    z.strictObject({ sinceMs: z.number().int().min(0).nullable().optional(), profileId: profileId.nullable().optional() }),
  ]),
  'history:export': z.tuple([z.enum(['csv', 'json', 'md'])]),
  'dashboard:visible': z.tuple([z.boolean()]),
  'dashboard:open': none,
  'profiles:list': none,
  'profiles:get': z.tuple([profileId]),
  'profiles:check': z.tuple([profileId]),
  'profiles:update': z.tuple([profileId, ProfileEditSchema]),
  'profiles:choose-file': z.tuple([profileId, z.enum(['binary', 'model', 'draftModel'])]),
  'profiles:import': z.tuple([
    z.string().min(1).max(65_536),
    z.string().min(1).max(200).nullable(),
    z.object({ force: z.boolean().optional(), replace: z.boolean().optional() }).strict().optional(),
  ]),
  'profiles:set-command': z.tuple([profileId, z.string().min(1).max(65_536)]),
  'profiles:export': z.tuple([profileId, z.enum(['bash', 'cmd', 'powershell'])]),
  'profiles:duplicate': z.tuple([profileId]),
  'profiles:delete': z.tuple([profileId]),
  'profiles:undo-delete': z.tuple([profileId]),
  'profiles:apply-flag-fixes': z.tuple([profileId]),
  'profiles:pin': z.tuple([profileId]),
  'profiles:unpin': z.tuple([profileId]),
  'profiles:discover': none,
  'profiles:create-discovered': z.tuple([discoveredId, discoveredId, discoveredId.nullable(), z.string().min(1).max(200).nullable()]),
  'fit:estimate': z.tuple([profileId]),
  'fit:llama-plan': z.tuple([profileId]),
  'bench:run': z.tuple([
    z.array(profileId).min(1).max(8),
    z.object({ runs: z.number().int().min(1).max(20), tokens: z.number().int().min(16).max(4096) }).strict(),
  ]),
  'bench:cancel': none,
  'bench:history': z.tuple([z.number().int().min(1).max(200)]),
  'bench:tune': z.tuple([
    profileId,
    z
      .object({
        runs: z.number().int().min(1).max(20),
        tokens: z.number().int().min(16).max(4096),
        saveAs: z.string().trim().min(1).max(200).nullable(),
      })
      .strict(),
  ]),
  'bench:export': z.tuple([z.string().datetime(), z.enum(['markdown', 'csv'])]),
  'warnings:apply-fix': z.tuple([warningId]),
  'warnings:mute': z.tuple([warningId]),
  'warnings:muted': z.tuple([profileId]),
  'warnings:unmute': z.tuple([profileId, muteKey]),
  'engines:install': z.tuple([installOptions]),
  'engines:plan': z.tuple([installOptions]),
  'engines:list': none,
  'engines:remove': z.tuple([engineId, z.boolean()]),
  'engines:check-update': none,
  'models:recipes': none,
  'models:apply-recipe': z.tuple([
    z
      .string()
      .min(1)
      .max(64)
      .regex(/^[a-z0-9][a-z0-9-]*$/),
  ]),
  'models:pull': z.tuple([
    z.string().max(200).regex(MODEL_REF),
    z
      .string()
      .min(1)
      .max(300)
      .regex(/^[\w.-]+(?:\/[\w.-]+)*$/)
      .refine((f) => !f.split('/').includes('..'))
      .nullable(),
  ]),
  'engines:update-notice': none,
  'engines:update': z.tuple([profileId]),
  'engines:rollback': z.tuple([profileId]),
  'settings:get': none,
  'settings:set': z.tuple([SettingsSchema]),
  'shell:open-logs-folder': none,
  'diagnostics:summary': none,
  'diagnostics:save': none,
}
