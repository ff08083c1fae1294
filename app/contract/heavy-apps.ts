/** A program that competes with llama-server for the CPU (or the GPU) while it runs. */
export interface HeavyApp {
  readonly name: string
  /** Image names, compared without ".exe" and case (Linux names are cut to 15 characters). */
  readonly processes: readonly string[]
}

/**
 * The built-in heavy apps: the core counts them, the Settings view shows them (read-only, beside the
 * user's additions in the heavyApps setting). A heavy-apps.json in the home folder replaces this list.
 */
export const BUILT_IN_HEAVY_APPS: readonly HeavyApp[] = [
  { name: 'Discord', processes: ['Discord.exe', 'discord', 'DiscordCanary', 'DiscordPTB'] },
  { name: 'Chrome', processes: ['chrome.exe', 'chrome', 'google-chrome'] },
  { name: 'Edge', processes: ['msedge.exe', 'msedge', 'microsoft-edge'] },
  { name: 'Firefox', processes: ['firefox.exe', 'firefox', 'firefox-bin', 'firefox-esr'] },
  { name: 'Brave', processes: ['brave.exe', 'brave', 'brave-browser'] },
  { name: 'Teams', processes: ['ms-teams.exe', 'Teams.exe', 'teams-for-linux'] },
  { name: 'Slack', processes: ['slack.exe', 'slack'] },
  { name: 'Steam', processes: ['steam.exe', 'steamwebhelper.exe', 'steam', 'steamwebhelper'] },
  { name: 'OBS', processes: ['obs64.exe', 'obs'] },
  { name: 'Zoom', processes: ['Zoom.exe', 'zoom', 'ZoomWebviewHost'] },
  // Another inference server beside ours competes for the same cores and VRAM (ours is excluded by pid).
  {
    name: 'Another LLM server',
    processes: [
      'llama-server.exe',
      'llama-server',
      'llama-cli.exe',
      'llama-cli',
      'ollama.exe',
      'ollama',
      'ollama_llama_server.exe',
      'ollama_llama_server',
      'koboldcpp.exe',
      'koboldcpp',
      'LM Studio.exe',
      'lm-studio',
    ],
  },
]
