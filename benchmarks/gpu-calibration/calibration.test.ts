import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { calibrate, CALIBRATION_CONFIGS, formatCalibration } from './calibration'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { MODELS as MODELS_DIR } from '../../test/helpers/paths'

describe('the estimate against the real llama-server (CPU build, tiny models)', () => {
  it('model, KV and recurrent sizes within 5%, compute buffers within 15%, on every configuration', async () => {
    const LLAMA_SERVER = llamaServerBin()
    expect(existsSync(LLAMA_SERVER), `llama-server not found at ${LLAMA_SERVER} (npm run llama-server)`).toBe(true)
    expect(CALIBRATION_CONFIGS.length).toBeGreaterThanOrEqual(8)
    const rows = await calibrate(LLAMA_SERVER, MODELS_DIR)
    process.stdout.write(`\n${formatCalibration(rows)}\n`)
    expect(new Set(rows.map((r) => r.config)).size).toBe(CALIBRATION_CONFIGS.length)
    expect(rows.some((r) => r.which === 'draft')).toBe(true)
    expect(rows.filter((r) => !r.ok)).toEqual([])
  }, 120_000)
})
