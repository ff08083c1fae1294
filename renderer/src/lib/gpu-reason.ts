/**
 * Telemetry's reason for having no GPU data, as one short phrase a user can
 * act on; the raw reason stays available as the detail behind it.
 */
export function gpuReasonSummary(raw: string | null): string {
  const r = raw ?? ''
  if (r === '') return 'the GPU could not be read'
  if (/GPU is asleep/i.test(r)) return 'the GPU is asleep (not read, so that it stays asleep)'
  if (/telemetry is off/i.test(r)) return 'GPU telemetry is off'
  if (/lists no GPU/i.test(r)) return 'the NVIDIA driver sees no GPU'
  if (/libnvidia-ml|nvml\.dll|NVML is not available|NVML unavailable|nvidia-smi not found/i.test(r)) return 'no NVIDIA driver found'
  if (/read failed|timed? ?out/i.test(r)) return 'the NVIDIA driver did not answer'
  return 'the GPU could not be read'
}
