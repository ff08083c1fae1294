import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { diagnoseExit } from './diagnose'
import { hfFailure } from './hf-download-hint'

let dir = ''
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'llama-tray-hfhint-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

const HTTPS_LOG = [
  '0.00.002.482 E get_repo_commit: error: HTTPS is not supported. Please rebuild with one of:',
  '0.00.002.500 W get_repo_files: failed to resolve commit for org/A-GGUF',
  "0.00.004.450 E cmn  common_init_: failed to load model ''",
]

describe('-hf failures', () => {
  it('name a build without HTTPS and offer the models pull command for the same repo and quant', async () => {
    const d = await hfFailure(diagnoseExit(1, null, HTTPS_LOG), ['-hf', 'org/A-GGUF:Q4_K_M', '-c', '4096'], { HF_HUB_CACHE: dir })
    expect(d).toEqual({
      kind: 'download-failed',
      reason: 'this llama-server was built without HTTPS support, so -hf cannot download the model',
      hint: 'run llama-tray models pull org/A-GGUF:Q4_K_M (resumes and verifies it), then use -m with the path it prints',
      deterministic: true,
    })
  })

  it('offer --offline when the model is already in the cache, and say that nothing was fetched for a bare load failure', async () => {
    const snap = join(dir, 'models--org--A-GGUF', 'snapshots', 'c0ffee')
    await mkdir(snap, { recursive: true })
    await writeFile(join(snap, 'a-Q4_K_M.gguf'), 'GGUF')
    const d = await hfFailure(
      diagnoseExit(1, null, ["0.00.004.450 E cmn  common_init_: failed to load model ''"]),
      ['-hf', 'org/A-GGUF:Q4_K_M'],
      { LLAMA_CACHE: dir },
    )
    expect(d.kind).toBe('download-failed')
    expect(d.reason).toBe('llama-server could not download org/A-GGUF:Q4_K_M for -hf')
    expect(d.hint).toMatch(/^the log says what the Hub answered\. the model is already in the cache: add --offline to the profile/)
  })

  it('leave other launches and other failures alone', async () => {
    const oom = diagnoseExit(1, null, ['cudaMalloc failed: out of memory'])
    expect(await hfFailure(oom, ['-hf', 'org/A'], {})).toBe(oom)
    const load = diagnoseExit(1, null, ["failed to load model ''"])
    expect(await hfFailure(load, ['-m', 'a.gguf'], {})).toBe(load)
  })
})
