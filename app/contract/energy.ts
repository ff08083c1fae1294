/** Energy as NVML measured it, for the dashboard, the CLI and the bench: J under 3,600 J, else Wh ("840 J", "1.5 Wh"). */
export function formatEnergy(joules: number): string {
  if (joules < 3600) return `${joules < 10 ? joules.toFixed(1) : Math.round(joules)} J`
  return `${(joules / 3600).toFixed(1)} Wh`
}

/** "120 J per 1,000 tokens", or "n/a" where no GPU energy was measured. */
export function formatPerThousandTokens(joules: number | null | undefined): string {
  return joules == null ? 'n/a' : `${formatEnergy(joules)} per 1,000 tokens`
}
