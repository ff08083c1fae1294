import type { CommandHelp } from '../command'

/** What the usage text says of `settings`; the command's own module loads only when it runs (see ./index.ts). */
export const SETTINGS_HELP: CommandHelp = {
  name: 'settings',
  summary: 'list, read or change the settings (the same file and rules as the Settings view)',
  usage: `  llama-tray settings [--json]                      every setting, its value and what it does
  llama-tray settings get <key> [--json]            one value (a list: one item per line)
  llama-tray settings set <key> <value...>          change one, checked like the file: on/off, a number, or list items
    e.g. llama-tray settings set port 18112; settings set switch-on-request off; settings set heavyApps obs64.exe vlc
    <key> as listed (port, switchOnRequest, …) or with dashes (switch-on-request); "none" empties a list`,
}
