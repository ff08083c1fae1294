import type { DevicePowerSource } from '../../platform/device-power'
import { AsleepGate } from './asleep-gate'
import type { GpuReader } from './gpu-reader'

/**
 * The GPU reader behind the asleep gate: opened now when the GPU is awake (or its state unknown), else at the first
 * read that finds it awake. Never throws.
 */
export async function openGatedGpuReader(power: DevicePowerSource, open: () => Promise<GpuReader>): Promise<GpuReader> {
  const gate = new AsleepGate({ power, open })
  await gate.ready()
  return gate
}
