import type { CommandChannels } from '../contract/commands'
import type { ModelPullProgress } from '../contract/models'
import { isDownloadError } from '../lib/download'
import { ModelsError, parseModelRef, pullModel } from '../models'

type ModelChannels = Pick<CommandChannels, 'models:pull'>

export interface ModelCommandOptions {
  /** HF_ENDPOINT, HF_TOKEN and the cache folders (default: the process environment). */
  readonly env?: Readonly<Record<string, string | undefined>>
}

/** The dashboard's model pull (first run): one at a time, progress pushed, refusals as one sentence. */
export function modelCommands(onProgress: (p: ModelPullProgress) => void, options: ModelCommandOptions = {}): ModelChannels {
  let pulling = false
  return {
    'models:pull': async (ref, file) => {
      if (pulling) return { ok: false, error: 'a model is already being downloaded: wait for it to finish' }
      pulling = true
      try {
        const { repo, quant } = parseModelRef(ref)
        const r = await pullModel({ repo, quant, file, ...(options.env ? { env: options.env } : {}), onProgress: (p) => onProgress({ repo, ...p }) })
        return { ok: true, value: { repo: r.repo, file: r.file, path: r.path, sizeBytes: r.sizeBytes, sha256: r.sha256, cached: r.cached } }
      } catch (err) {
        // A damaged download reads as its one sentence with the fix first; the hashes are the CLI's details.
        if (isDownloadError(err) && err.kind === 'digest-mismatch') return { ok: false, error: `${decodeURIComponent(err.url.split('/').pop() ?? 'The file')} from ${ref} does not match the sha256 the Hub lists for it, so it was deleted and nothing was kept: try again, and report it to the repo's owners if it repeats.` }
        if (err instanceof ModelsError || isDownloadError(err)) return { ok: false, error: err.message }
        throw err
      } finally {
        pulling = false
      }
    },
  }
}
