import { EndpointError } from './openai-error'

export interface ProfileEntry {
  readonly id: string
  readonly name: string
  /** Runs beside the active profile as its own server. */
  readonly pinned?: boolean
}

export interface ProfileList {
  readonly profiles: readonly ProfileEntry[]
  /** The profile recorded as active (the last one started successfully). */
  readonly activeProfileId: string | null
}

/**
 * The profile a request's `model` names: its id, else its name (any case).
 * No model (or an empty one) means the profile that runs, else the recorded
 * active one. An unknown name is an OpenAI-style 404 that lists the profiles.
 */
export function profileForModel(model: unknown, list: ProfileList, runningProfileId: string | null): string {
  if (model === undefined || model === null || model === '') {
    const fallback = runningProfileId ?? list.activeProfileId
    if (fallback === null)
      throw new EndpointError(
        503,
        'unavailable_error',
        `no profile is running and the request names none: set "model" to one of ${known(list)}`,
        'no_model',
      )
    return fallback
  }
  if (typeof model !== 'string')
    throw new EndpointError(400, 'invalid_request_error', '"model" must be a string: the id of a profile (GET /v1/models lists them)')
  const byId = list.profiles.find((p) => p.id === model)
  if (byId) return byId.id
  const lower = model.toLowerCase()
  const byName = list.profiles.find((p) => p.name.toLowerCase() === lower)
  if (byName) return byName.id
  throw new EndpointError(
    404,
    'not_found_error',
    `no profile "${model}": use one of ${known(list)} (GET /v1/models lists them)`,
    'model_not_found',
  )
}

function known(list: ProfileList): string {
  return list.profiles.length === 0 ? 'the profiles you add in Llama Tray (none yet)' : list.profiles.map((p) => `"${p.id}"`).join(', ')
}

/** GET /v1/models: every stored profile, the active and the pinned ones marked (OpenAI's list shape, plus name, active, pinned). */
export function modelList(list: ProfileList, runningProfileId: string | null): unknown {
  const active = runningProfileId ?? list.activeProfileId
  return {
    object: 'list',
    data: list.profiles.map((p) => ({
      id: p.id,
      object: 'model',
      created: 0,
      owned_by: 'llama-tray',
      name: p.name,
      active: p.id === active,
      pinned: p.pinned === true,
    })),
  }
}
