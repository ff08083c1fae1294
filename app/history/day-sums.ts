/**
 * The SQL that sums requests per day (and per profile), live rows and rolled-up
 * days alike, so that a query never sees where a day's requests are kept.
 */

const LOCAL_DAY = `date(time / 1000, 'unixepoch', 'localtime')`
// promptTokens counts the prompt as `usage` does (cached tokens included); its speed is over the processed ones.
const PROCESSED_PROMPT = '(prompt_tokens - COALESCE(cached_tokens, 0))'
const timed = (tokens: string, rate: string): string => `CASE WHEN ${rate} > 0 AND ${tokens} > 0 THEN ${tokens} ELSE 0 END`

/** Each request as one day's contribution (the columns of the days table). */
export const REQUEST_AS_DAY = `SELECT ${LOCAL_DAY} AS day, COALESCE(profile_id, '') AS profile_id, profile_name,
  1 AS requests, (status >= 400 OR error IS NOT NULL) AS errors,
  COALESCE(prompt_tokens, 0) AS prompt_tokens, COALESCE(cached_tokens, 0) AS cached_tokens,
  COALESCE(generated_tokens, 0) AS generated_tokens, COALESCE(draft_tokens, 0) AS draft_tokens,
  COALESCE(draft_accepted, 0) AS draft_accepted,
  ${timed(PROCESSED_PROMPT, 'prompt_per_second')} * 1000.0 / MAX(prompt_per_second, 1e-9) AS prompt_ms,
  ${timed('generated_tokens', 'generation_per_second')} * 1000.0 / MAX(generation_per_second, 1e-9) AS generation_ms,
  ${timed(PROCESSED_PROMPT, 'prompt_per_second')} AS timed_prompt_tokens,
  ${timed('generated_tokens', 'generation_per_second')} AS timed_generated_tokens,
  duration_ms, energy_j
  FROM requests`

const DAY_COLUMNS = `day, profile_id, profile_name, requests, errors, prompt_tokens, cached_tokens, generated_tokens, draft_tokens,
  draft_accepted, prompt_ms, generation_ms, timed_prompt_tokens, timed_generated_tokens, duration_ms, energy_j`

/** The sums a grouped query selects, named as dayFromRow reads them. */
export const DAY_SUMS = `MAX(profile_name) AS profileName, SUM(requests) AS requests, SUM(errors) AS errors,
  SUM(prompt_tokens) AS promptTokens, SUM(cached_tokens) AS cachedTokens, SUM(generated_tokens) AS generatedTokens,
  SUM(draft_tokens) AS draftTokens, SUM(draft_accepted) AS draftAccepted, SUM(prompt_ms) AS promptMs,
  SUM(generation_ms) AS generationMs, SUM(timed_prompt_tokens) AS timedPromptTokens,
  SUM(timed_generated_tokens) AS timedGeneratedTokens, SUM(duration_ms) AS durationMs, SUM(energy_j) AS energyJ`

export interface DayFilter {
  readonly sinceMs: number | null
  readonly profileId: string | null
}

/** Live requests and rolled-up days from `filter`, as rows of the days table; with its parameters. */
export function dayRows(filter: DayFilter): { readonly sql: string; readonly params: (string | number)[] } {
  const reqWhere: string[] = []
  const dayWhere: string[] = []
  const reqParams: (string | number)[] = []
  const dayParams: (string | number)[] = []
  if (filter.sinceMs !== null) {
    reqWhere.push('time >= ?')
    reqParams.push(filter.sinceMs)
    dayWhere.push(`day >= date(? / 1000, 'unixepoch', 'localtime')`)
    dayParams.push(filter.sinceMs)
  }
  if (filter.profileId !== null) {
    reqWhere.push('profile_id = ?')
    reqParams.push(filter.profileId)
    dayWhere.push('profile_id = ?')
    dayParams.push(filter.profileId)
  }
  const where = (w: string[]): string => (w.length > 0 ? ` WHERE ${w.join(' AND ')}` : '')
  return {
    sql: `${REQUEST_AS_DAY}${where(reqWhere)} UNION ALL SELECT ${DAY_COLUMNS} FROM days${where(dayWhere)}`,
    params: [...reqParams, ...dayParams],
  }
}

/** Rolls requests older than `beforeMs` into the days table and deletes them (in the caller's transaction). */
export const ROLL_UP = `INSERT INTO days (${DAY_COLUMNS})
  SELECT day, profile_id, MAX(profile_name), SUM(requests), SUM(errors), SUM(prompt_tokens), SUM(cached_tokens),
    SUM(generated_tokens), SUM(draft_tokens), SUM(draft_accepted), SUM(prompt_ms), SUM(generation_ms),
    SUM(timed_prompt_tokens), SUM(timed_generated_tokens), SUM(duration_ms), SUM(energy_j)
  FROM (${REQUEST_AS_DAY} WHERE time < ?1) WHERE true GROUP BY day, profile_id
  ON CONFLICT (day, profile_id) DO UPDATE SET requests = requests + excluded.requests, errors = errors + excluded.errors,
    prompt_tokens = prompt_tokens + excluded.prompt_tokens, cached_tokens = cached_tokens + excluded.cached_tokens,
    generated_tokens = generated_tokens + excluded.generated_tokens, draft_tokens = draft_tokens + excluded.draft_tokens,
    draft_accepted = draft_accepted + excluded.draft_accepted, prompt_ms = prompt_ms + excluded.prompt_ms,
    generation_ms = generation_ms + excluded.generation_ms,
    timed_prompt_tokens = timed_prompt_tokens + excluded.timed_prompt_tokens,
    timed_generated_tokens = timed_generated_tokens + excluded.timed_generated_tokens,
    duration_ms = duration_ms + excluded.duration_ms,
    energy_j = CASE WHEN energy_j IS NULL AND excluded.energy_j IS NULL THEN NULL ELSE COALESCE(energy_j, 0) + COALESCE(excluded.energy_j, 0) END`
