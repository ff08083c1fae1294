import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { importArgv } from '../../../app/profiles/import-command'
import { ProfileStore } from '../../../app/profiles/store'

/**
 * A home folder holding an API key in every way Llama Tray supports, and
 * tokens where users leave them, for the redaction tests: each secret is a
 * distinct string, so a test can grep the bundle for every one.
 */
export const SECRETS = {
  inline: 'inline-key-7Qm2Vx9Lp4', // --api-key K
  joined: 'joined-key-Zr8Tw3Nc', // --api-key=K
  listFirst: 'list-key-one-Qq1x', // --api-key a,b
  listSecond: 'list-key-two-Ww2y',
  keyFile: 'file-key-Hy6Ud1Ke', // the --api-key-file's content
  keyFileSecond: 'file-key-two-Pq5Ws0',
  typedSetting: 'setting-key-Bn4Jf7', // the profile's typed apiKey setting
  profileEnv: 'profile-env-key-Lk3Mg8', // LLAMA_API_KEY in the profile's environment
  processEnv: 'process-env-key-Ty9Rb2', // LLAMA_API_KEY where the app runs
  hfEnv: 'hf_EnvToken1234567890abcd', // HF_TOKEN where the app runs
  hfFlag: 'hf_FlagToken0987654321zyxw', // -hft in a profile
  hfProfileEnv: 'hf_ProfileEnvToken24680aa', // HF_TOKEN in a profile's environment
  hfLogOnly: 'hf_LogOnlyToken5555566666', // only in the log: caught by its shape
  github: 'ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', // GITHUB_TOKEN where the app runs
  bearerOnly: 'bearer-only-Xc7Vb1Mn', // only in the log, after "Authorization: Bearer"
} as const

export const USER = 'alice'

export interface SecretHome {
  readonly home: string
  /** The environment "the app runs in". */
  readonly env: Readonly<Record<string, string>>
  readonly activeProfileId: string
}

/** Fills `home` (default: a new temp folder) with the profiles, key file, settings and log. */
export async function makeSecretHome(existing?: string): Promise<SecretHome> {
  const home = existing ?? (await mkdtemp(join(tmpdir(), 'llama-tray-diag-')))
  const keyFile = join(home, 'keys.txt')
  await writeFile(keyFile, `# keys for the laptop server\n${SECRETS.keyFile}\n${SECRETS.keyFileSecond}\n`)
  const store = await ProfileStore.open(home)
  const taken: string[] = []
  type Edit = (p: ReturnType<typeof importArgv>) => ReturnType<typeof importArgv>
  const add = async (name: string, argv: readonly string[], edit: Edit = (p) => p): Promise<string> => {
    const profile = edit(importArgv(argv, { name, takenIds: taken }))
    taken.push(profile.id)
    await store.upsert(profile)
    return profile.id
  }
  const bin = `/home/${USER}/llama.cpp/build/bin/llama-server`
  const active = await add('inline', [bin, '-m', `/home/${USER}/models/qwen.gguf`, '--api-key', SECRETS.inline, '--n-cpu-moe', '20'])
  await add('joined', [bin, '-m', 'C:\\Users\\alice\\models\\qwen.gguf', `--api-key=${SECRETS.joined}`])
  await add('list', [bin, '-m', '/Users/alice/m.gguf', '--api-key', `${SECRETS.listFirst},${SECRETS.listSecond}`])
  await add('key file', [bin, '-m', 'm.gguf', '--api-key-file', keyFile])
  await add('typed setting', [bin, '-m', 'm.gguf'], (p) => ({ ...p, settings: { ...p.settings, apiKey: SECRETS.typedSetting } }))
  await add('env', [`LLAMA_API_KEY=${SECRETS.profileEnv}`, `HF_TOKEN=${SECRETS.hfProfileEnv}`, bin, '-m', 'm.gguf'])
  await add('hf', [bin, '-hf', 'unsloth/Qwen3-0.6B-GGUF:Q4_K_M', '-hft', SECRETS.hfFlag])
  await store.setActive(active)
  await writeFile(join(home, 'settings.json'), `${JSON.stringify({ port: 8081, modelDirs: [`/home/${USER}/models`] }, null, 2)}\n`)
  await mkdir(join(home, 'logs'), { recursive: true })
  // What llama-server and older builds wrote: keys echoed in every shape.
  const log = [
    `[llama-tray] started ${bin} -m /home/${USER}/models/qwen.gguf --api-key ${SECRETS.inline} --port 8080 (pid 4242)`,
    `[llama-tray] started ${bin} --api-key=${SECRETS.joined} (pid 4243)`,
    'main: HTTP server is listening, hostname: 127.0.0.1, port: 8080, http threads: 3',
    `srv  operator(): Authorization: Bearer ${SECRETS.bearerOnly}`,
    `srv  operator(): invalid api key: ${SECRETS.typedSetting}`,
    `common_download_file_single: using HF_TOKEN=${SECRETS.hfEnv} and -hft ${SECRETS.hfFlag}`,
    `common_download_file_single: token ${SECRETS.hfLogOnly} from C:\\Users\\${USER}\\.cache\\huggingface`,
    `env LLAMA_API_KEY=${SECRETS.processEnv} GITHUB_TOKEN=${SECRETS.github}`,
    `keys from ${keyFile}: ${SECRETS.keyFile}, ${SECRETS.keyFileSecond}`,
    `loaded /Users/${USER}/models/x.gguf for ${USER}`,
    "print_info: EOS token        = 151645 '<|im_end|>'",
    `[llama-tray] llama-server exited with code 1 (list: ${SECRETS.listFirst},${SECRETS.listSecond};` +
      ` env ${SECRETS.profileEnv}, ${SECRETS.hfProfileEnv})`,
  ]
  await writeFile(join(home, 'logs', 'llama-server.log'), `${log.join('\n')}\n`)
  const env = { USER, LLAMA_API_KEY: SECRETS.processEnv, HF_TOKEN: SECRETS.hfEnv, GITHUB_TOKEN: SECRETS.github }
  return { home, env, activeProfileId: active }
}
