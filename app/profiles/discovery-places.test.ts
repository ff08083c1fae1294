import { describe, expect, it } from 'vitest'
import { installFolders, modelFolders, pathFolders, serverExeNames } from './discovery-places'

describe('where discovery looks on each platform', () => {
  it('Windows: Path with ;, quotes and duplicates; %LOCALAPPDATA%, source builds, C:\\llama.cpp, winget and scoop', async () => {
    const places = {
      platform: 'win32' as const,
      homedir: 'C:\\Users\\Ann',
      env: { Path: 'C:\\Windows;"C:\\Program Files\\llama";;C:\\Windows', LOCALAPPDATA: 'C:\\Users\\Ann\\AppData\\Local' },
    }
    expect(pathFolders(places)).toEqual(['C:\\Windows', 'C:\\Program Files\\llama'])
    expect(serverExeNames('win32')).toEqual(['llama-server.exe', 'llama.exe'])
    expect(await installFolders(places)).toEqual(
      expect.arrayContaining([
        'C:\\Users\\Ann\\AppData\\Local\\llama.cpp',
        'C:\\Users\\Ann\\llama.cpp\\build\\bin\\Release',
        'C:\\Users\\Ann\\ik_llama.cpp\\build\\bin\\Release',
        'C:\\llama.cpp',
        'C:\\Users\\Ann\\AppData\\Local\\Microsoft\\WinGet\\Links',
        'C:\\Users\\Ann\\scoop\\shims',
      ]),
    )
    expect(modelFolders(places, ['D:\\models']).map((f) => f.dir)).toEqual([
      'D:\\models',
      'C:\\Users\\Ann\\.lmstudio\\models',
      'C:\\Users\\Ann\\.cache\\lm-studio\\models',
      'C:\\Users\\Ann\\.cache\\huggingface\\hub',
      'C:\\Users\\Ann\\models',
    ])
  })

  it('macOS: Homebrew on Apple silicon and Intel; Linux: source builds, /usr/local/bin, ~/.local/bin; HF_HOME and HF_HUB_CACHE', async () => {
    const mac = { platform: 'darwin' as const, homedir: '/Users/ann', env: { PATH: '/usr/bin:/bin', HF_HOME: '/Volumes/x/hf' } }
    expect((await installFolders(mac)).slice(0, 2)).toEqual(['/opt/homebrew/bin', '/usr/local/bin'])
    expect(modelFolders(mac, []).find((f) => f.source === 'Hugging Face cache')?.dir).toBe('/Volumes/x/hf/hub')
    const linux = { platform: 'linux' as const, homedir: '/home/ann', env: { PATH: '/usr/bin', HF_HUB_CACHE: '/data/hub' } }
    expect(await installFolders(linux)).toEqual(
      expect.arrayContaining(['/home/ann/llama.cpp/build/bin', '/usr/local/bin', '/home/ann/.local/bin']),
    )
    expect(modelFolders(linux, []).find((f) => f.source === 'Hugging Face cache')?.dir).toBe('/data/hub')
  })
})
