import { lstat, mkdir, mkdtemp, readFile, readlink, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { hubCacheDir } from './hf-env'
import { linkSnapshot, repoCache } from './hf-cache'

let dir = ''
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'llama-tray-hfcache-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

describe('the Hugging Face cache layout', () => {
  it('names the folders as huggingface_hub and llama.cpp do, and finds the cache from the environment', () => {
    const c = repoCache('/c', 'org/Name-GGUF')
    expect(c.blob('ab')).toBe('/c/models--org--Name-GGUF/blobs/ab')
    expect(c.incomplete('ab')).toBe('/c/models--org--Name-GGUF/blobs/ab.incomplete')
    expect(c.snapshot('c0', 'Q4/x.gguf')).toBe('/c/models--org--Name-GGUF/snapshots/c0/Q4/x.gguf')
    expect(c.ref('main')).toBe('/c/models--org--Name-GGUF/refs/main')
    expect(hubCacheDir({ HF_HUB_CACHE: '/a', HF_HOME: '/b' }, '/h', 'linux')).toBe('/a')
    expect(hubCacheDir({ HF_HOME: '/b', XDG_CACHE_HOME: '/x' }, '/h', 'linux')).toBe('/b/hub')
    expect(hubCacheDir({ XDG_CACHE_HOME: '/x' }, '/h', 'linux')).toBe('/x/huggingface/hub')
    expect(hubCacheDir({}, '/h', 'linux')).toBe('/h/.cache/huggingface/hub')
    expect(hubCacheDir({}, 'C:\\Users\\u', 'win32')).toBe('C:\\Users\\u\\.cache\\huggingface\\hub')
  })

  it('links a snapshot to its blob, and copies it where symlinks are not allowed (Windows without the right)', async () => {
    const c = repoCache(dir, 'org/x')
    await mkdir(join(c.dir, 'blobs'), { recursive: true })
    await writeFile(c.blob('ab'), 'GGUF-bytes')
    expect(await linkSnapshot(c.blob('ab'), c.snapshot('c0', 'm.gguf'))).toBe('symlink')
    expect(await readlink(c.snapshot('c0', 'm.gguf'))).toBe(join('..', '..', 'blobs', 'ab'))
    const refused = async (): Promise<void> => {
      throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' })
    }
    expect(await linkSnapshot(c.blob('ab'), c.snapshot('c1', 'm.gguf'), refused)).toBe('copy')
    expect((await lstat(c.snapshot('c1', 'm.gguf'))).isFile()).toBe(true)
    expect(await readFile(c.snapshot('c1', 'm.gguf'), 'utf8')).toBe('GGUF-bytes')
  })
})
