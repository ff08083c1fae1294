import type { DiagnosticsReport } from './collect'

/** One screen, to paste into an issue: at most this many lines of at most this many characters. */
export const SUMMARY_MAX_LINES = 40
export const SUMMARY_MAX_COLUMNS = 100
/** The last log lines the summary shows (the bundle has the rest). */
const SUMMARY_LOG_LINES = 6
const SUMMARY_STATES = 8
/** The active profile's command wraps over at most this many lines. */
const COMMAND_LINES = 4

const clip = (line: string): string => (line.length <= SUMMARY_MAX_COLUMNS ? line : `${line.slice(0, SUMMARY_MAX_COLUMNS - 1)}…`)

/** Breaks a long command at spaces into lines of the summary's width, indented; the last one ends with … when cut. */
function wrap(text: string, indent: string, maxLines: number): string[] {
  const width = SUMMARY_MAX_COLUMNS - indent.length
  const out: string[] = []
  let rest = text
  while (rest !== '' && out.length < maxLines) {
    if (rest.length <= width) {
      out.push(rest)
      rest = ''
      break
    }
    const cut = rest.lastIndexOf(' ', width)
    const at = cut > width / 2 ? cut : width
    out.push(rest.slice(0, at))
    rest = rest.slice(at).trimStart()
  }
  if (rest !== '' && out.length > 0) out[out.length - 1] = `${(out[out.length - 1] as string).slice(0, width - 1)}…`
  return out.map((l) => indent + l)
}

const time = (ms: number): string => new Date(ms).toISOString().slice(11, 19)

function gpuLines(report: DiagnosticsReport): string[] {
  const { inventory, reading } = report.gpu
  const lines: string[] = []
  if ('error' in inventory) lines.push(`GPU inventory: ${inventory.error}`)
  else if (inventory.gpus.length === 0) lines.push('GPU inventory: no NVIDIA GPU listed')
  else
    for (const g of inventory.gpus)
      lines.push(
        `GPU ${g.index}: ${g.productName ?? 'unknown'}, ${g.memoryTotalMiB ?? '?'} MiB${g.driverModel ? `, ${g.driverModel}` : ''}`,
      )
  if (reading?.available) {
    for (const d of reading.devices) {
      const memory = `${d.memoryUsedMiB ?? '?'}/${d.memoryTotalMiB ?? '?'} MiB used`
      lines.push(`  now: ${memory}, ${d.temperatureC ?? '?'} °C, ${d.utilizationPct ?? '?'} % (${reading.backend ?? '?'})`)
    }
  } else if (reading) lines.push(`GPU reading: ${reading.reason ?? 'none'}`)
  return lines.slice(0, 6)
}

function serverLines(report: DiagnosticsReport): string[] {
  const { status, transitions } = report.server
  const lines: string[] = []
  if (status) {
    const where = status.port !== null ? `, port ${status.port}` : ''
    const who = `${status.profileId ? `, profile ${status.profileId}` : ''}${status.pid ? `, pid ${status.pid}` : ''}`
    lines.push(`Server: ${status.state}${who}${where}, ${status.restarts} restarts`)
    const exit = status.lastExit
    if (exit?.reason) lines.push(`Last exit: ${exit.reason}${exit.hint ? ` (${exit.hint})` : ''}`)
  } else lines.push('Server: not run by this process (the app may run one)')
  if (transitions.length > 0) {
    const recent = transitions.slice(-SUMMARY_STATES).map((t) => `${time(t.at)} ${t.state}${t.exit ? ` (${t.exit})` : ''}`)
    lines.push(...wrap(`States: ${recent.join(' → ')}`, '', 2))
  }
  const events = report.server.supervisorLines.slice(-3)
  if (events.length > 0) lines.push('Supervisor:', ...events.map((l) => `  ${l.replace(/^\[llama-tray\] /, '')}`))
  return lines
}

/** One line per pinned profile: its server's state where known, and its log's last supervisor line (the bundle has its log). */
function pinnedLines(report: DiagnosticsReport): string[] {
  return report.pinned.slice(0, 3).map((p) => {
    const s = p.server
    const state = s ? ` ${s.state}${s.pid ? `, pid ${s.pid}` : ''}, ${s.restarts} restarts` : ''
    const said = p.log.lines
      .filter((l) => l.startsWith('[llama-tray]'))
      .at(-1)
      ?.replace(/^\[llama-tray\] /, '')
    const log = p.log.sizeBytes === null ? 'no log yet' : `${p.log.lines.length} log lines in the bundle${said ? `, last: ${said}` : ''}`
    return `Pinned ${p.profileId}:${state} (${log})`
  })
}

function engineLine(engine: DiagnosticsReport['engine']): string {
  if (engine === null) return 'no llama-server chosen'
  if ('error' in engine) return `${engine.binary}: ${engine.error}`
  return `${engine.kind} ${engine.version ?? '?'}${engine.commit ? ` (${engine.commit})` : ''}, ${engine.binary}`
}

/**
 * The one-screen text for an issue: versions, GPU, server, active profile, counts, the log's last lines.
 * `redact` runs on each line before it is clipped: a clipped secret would no longer be recognised.
 */
export function formatSummary(report: DiagnosticsReport, redact: (line: string) => string = (l) => l): string {
  const v = report.versions
  const engine = engineLine(report.engine)
  const active = report.profiles.list.find((p) => p.active) ?? null
  const s = report.settings.values
  const problem = report.settings.problem ? ` (${report.settings.problem})` : ''
  const ids = report.profiles.list.map((p) => p.id)
  const lines: string[] = [
    `Llama Tray diagnostics, ${report.createdAt}`,
    `App ${v.app} · Node ${v.node}${v.electron ? ` · Electron ${v.electron}` : ''} · ${v.os}`,
    `NVIDIA driver ${v.nvidiaDriver ?? 'unknown'} · CUDA ${v.cuda ?? 'unknown'}`,
    `Engine: ${engine}`,
    ...gpuLines(report),
    ...serverLines(report),
    ...pinnedLines(report),
  ]
  if (active) lines.push(`Active profile: ${active.name} (${active.id})`, ...wrap(active.command, '  ', COMMAND_LINES))
  else lines.push('Active profile: none')
  lines.push(
    `Profiles: ${report.profiles.list.length} (${report.profiles.health})${ids.length > 0 ? `: ${ids.join(', ')}` : ''}`,
    `Engines: ${report.engines.length === 0 ? 'none installed by Llama Tray' : report.engines.map((e) => e.id).join(', ')}`,
    `Settings: headroom ${s.vramHeadroomMiB} MiB, port ${s.port}, endpoint ${s.endpoint ? 'on' : 'off'}, poll ${s.pollIntervalMs} ms` +
      problem,
  )
  const room = SUMMARY_MAX_LINES - lines.length - 1
  const logLines = report.log.lines.slice(-Math.min(SUMMARY_LOG_LINES, Math.max(0, room)))
  const logTitle = `Log (last ${logLines.length} of the bundle's ${report.log.lines.length} lines):`
  const noLog = report.log.problem ? `Log: unreadable (${report.log.problem})` : 'Log: none yet'
  if (room > 0) lines.push(report.log.sizeBytes === null ? noLog : logTitle)
  lines.push(...logLines.map((l) => `  ${l}`))
  return `${lines
    .slice(0, SUMMARY_MAX_LINES)
    .map((l) => clip(redact(l)))
    .join('\n')}\n`
}
