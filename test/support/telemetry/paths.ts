import path from 'node:path'
import { FAKE_SMI_DIR, REPO_ROOT, SMI_CAPTURES, SMI_H200, SMI_H200_NVML } from '../../helpers/paths'

/** Paths the telemetry tests share (from test/helpers/paths.ts). */
export const repoRoot = REPO_ROOT
export const smiCaptures = SMI_CAPTURES
export const h200Captures = SMI_H200
export const h200NvmlCaptures = SMI_H200_NVML
export const fakeSmiDir = FAKE_SMI_DIR
export const fakeSmiExe = path.join(fakeSmiDir, 'nvidia-smi')
