import { resolve } from 'node:path'

/** The tiny fixture models (../shared beside the repository, as CI clones it). */
export const MODELS_DIR = resolve(__dirname, '..', '..', '..', 'shared', 'fixtures', 'models')

export const LLAMA_SERVER = process.env.LLAMA_SERVER_BIN ?? '/root/.cache/llama-tray/llama-server-node-llama-cpp-3.22.1-cpu/llama-server'
