/** What a profile's warnings are muted by. */
export interface WarningMutes {
  mute(profileId: string, key: string): Promise<void>
  unmute(profileId: string, key: string): Promise<void>
  list(profileId: string): string[]
  /** Sentences about the mutes file's latest read (a damaged file set aside). */
  readonly messages?: readonly string[]
}

/**
 * Splits a warning id `<rule>[:<detail>]@<profileId>` into the profile and the
 * mute key (the id without the profile); null when it names no profile.
 */
export function splitWarningId(warningId: string): { profileId: string; key: string } | null {
  const at = warningId.lastIndexOf('@')
  if (at <= 0 || at === warningId.length - 1 || warningId.slice(at + 1) === 'none') return null
  return { profileId: warningId.slice(at + 1), key: warningId.slice(0, at) }
}
