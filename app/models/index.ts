/**
 * Models from the Hugging Face Hub (layer 2: imports app/contract and app/lib).
 *
 *   pullModel({ repo, quant?, file?, env?, signal?, onProgress? }) → PullResult
 *     { repo, commit, file, path, sizeBytes, sha256, parts, cached }
 *   parseModelRef('org/name:Q4_K_M') → { repo, quant }
 *   fetchRepoInfo, pickGguf, ggufModels: the Hub API and the choice of a GGUF
 *     (a tree whose file names are not plain relative paths is refused: unsafeHubPathReason)
 *   hubEndpoint / hubToken / hubCacheDir: HF_ENDPOINT, HF_TOKEN, HF_HUB_CACHE/HF_HOME
 *   repoCache, linkSnapshot: the cache layout (blobs, snapshots, refs, .incomplete)
 *
 * Refusals are ModelsError (kind, `available` = what exists) or, for the
 * transfer itself, DownloadError from app/lib/download.
 */
export { hubCacheDir, hubEndpoint, hubToken, llamaCacheDir } from './hf-env'
export { linkSnapshot, repoCache, repoFolderName, writeRef, type RepoCache } from './hf-cache'
export { unsafeHubPathReason } from './hub-path'
export { checkRepoId, fetchRepoInfo, resolveUrl, type HubFileInfo, type HubRepoInfo } from './hub-client'
export { ModelsError, type ModelsErrorKind } from './models-error'
export { ggufModels, pickGguf, type GgufModel } from './pick-gguf'
export { parseModelRef, pullModel, type PullOptions, type PullProgress, type PullResult, type PulledPart } from './pull-model'
export { quantisationFromName, splitPart } from './quant-name'
