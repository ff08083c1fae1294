import { profileArgv } from './launch-spec'
import type { Profile } from './schema'
import { problem, type Problem } from '../contract/problem'

export type ExportFormat = 'bash' | 'cmd' | 'powershell'
export const EXPORT_FORMATS: readonly ExportFormat[] = ['bash', 'cmd', 'powershell']

export class ExportError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ExportError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    return problem('profile', this.message)
  }
}

// --- bash / sh: single quotes are fully literal; a quote goes in double quotes.
const BASH_SAFE = /^[A-Za-z0-9_@+=:,./-]+$/

export function quoteBash(arg: string): string {
  if (arg !== '' && BASH_SAFE.test(arg)) return arg
  if (arg === '') return "''"
  return arg
    .split("'")
    .map((part) => (part === '' ? '' : `'${part}'`))
    .join(`"'"`)
}

// --- PowerShell: '…' is literal, a quote (also the typographic ones) is doubled.
const PS_SAFE = /^[A-Za-z0-9_./\\:=+-]+$/

export function quotePowerShell(arg: string): string {
  if (arg !== '' && PS_SAFE.test(arg) && !arg.endsWith('\\')) return arg
  return `'${arg.replace(/['\u2018\u2019\u201a\u201b]/g, (q) => q + q)}'`
}

// --- cmd.exe: "…" with Microsoft C runtime escaping. cmd itself cannot carry
// a newline, and it expands %NAME% even inside quotes, and a " inside an
// argument toggles cmd's own quoting (so & | < > would escape it): refused.
const CMD_SAFE = /^[A-Za-z0-9_./\\:=+,-]+$/

export function quoteCmd(arg: string): string {
  if (/[\r\n\0]/.test(arg)) throw new ExportError(`cmd.exe cannot pass an argument containing a line break: ${JSON.stringify(arg)}`)
  if (arg.includes('%')) throw new ExportError(`cmd.exe would expand % in ${JSON.stringify(arg)}: use the PowerShell or bash export`)
  if (arg.includes('"'))
    throw new ExportError(`cmd.exe cannot safely pass a double quote in ${JSON.stringify(arg)}: use the PowerShell or bash export`)
  if (arg !== '' && CMD_SAFE.test(arg) && !arg.endsWith('\\')) return arg
  // Backslashes before the closing quote are doubled so it still closes.
  return `"${arg.replace(/(\\+)$/, '$1$1')}"`
}

function argvOf(profile: Profile): string[] {
  const argv = profileArgv(profile)
  if (profile.binary === '') throw new ExportError(`profile "${profile.id}" has no llama-server binary yet: choose one first`)
  return argv
}

/** One command line for the chosen shell. Environment variables appear only in the bash form and in scripts. */
export function exportCommandLine(profile: Profile, format: ExportFormat): string {
  const argv = argvOf(profile)
  switch (format) {
    case 'bash': {
      const env = Object.entries(profile.env).map(([k, v]) => `${k}=${quoteBash(v)}`)
      return [...env, ...argv.map(quoteBash)].join(' ')
    }
    case 'powershell':
      return `& ${argv.map(quotePowerShell).join(' ')}`
    case 'cmd':
      return argv.map(quoteCmd).join(' ')
  }
}

/** A .sh script: environment exported, then exec of the server. */
export function exportShellScript(profile: Profile): string {
  const argv = argvOf(profile)
  const lines = ['#!/bin/sh', `# Llama Tray profile: ${profile.name.replace(/[\r\n]+/g, ' ')}`]
  for (const [k, v] of Object.entries(profile.env)) lines.push(`export ${k}=${quoteBash(v)}`)
  lines.push(`exec ${argv.map(quoteBash).join(' \\\n  ')}`, '')
  return lines.join('\n')
}

/** A .bat script (CRLF line ends; % doubled is not needed because % is refused). */
export function exportBatchScript(profile: Profile): string {
  const argv = argvOf(profile)
  const lines = ['@echo off', `rem Llama Tray profile: ${profile.name.replace(/[\r\n%]+/g, ' ')}`, 'setlocal']
  for (const [k, v] of Object.entries(profile.env)) {
    if (/[\r\n"%]/.test(v)) throw new ExportError(`environment variable ${k} cannot be written in a .bat file`)
    lines.push(`set "${k}=${v}"`)
  }
  lines.push(argv.map(quoteCmd).join(' ^\r\n  '), '')
  return lines.join('\r\n')
}
