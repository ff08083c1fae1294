import type { GameHold, OnGameSetting } from '../contract/game'
import { GPU_ASLEEP, type GpuProcessReader } from '../telemetry/gpu/gpu-process-reader'
import { GameWatch, type GameLook, type GameSeen, type GameThresholds } from './game-watch'
import { ProfileParking, type ParkingDeps } from './profile-parking'

/** The game watch's slow cadence: one look at the GPU's processes this often, only while onGame asks for something. */
export const GAME_WATCH_INTERVAL_MS = 5000

export interface GamePolicyDeps extends ParkingDeps {
  onGame(): OnGameSetting
  thresholds(): GameThresholds
  /** Calls `listener` when the settings change; returns its unsubscribe. */
  onSettingsChange(listener: () => void): () => void
  readonly reader: Pick<GpuProcessReader, 'read' | 'problem'>
  /** Our own servers' pids (the active and the pinned ones): never a game. */
  ownPids(): readonly number[]
  /** Windows' effective power mode is GameMode; null where unknown (absent: never known). */
  gameMode?(): boolean | null
  /** The shell says a full-screen Direct3D app runs (a hint: a busy process counts at once); null where unknown. */
  fullScreen?(): boolean | null
  /** Says what was done, once (the app's notification and log, the CLI's stderr). */
  say(sentence: string): void
  /** The game or what was done for it changed: the snapshot shows it. */
  changed(): void
  readonly intervalMs?: number
  readonly now?: () => number
}

const mib = (n: number | null): string => (n === null ? '' : ` (${Math.round(n).toLocaleString('en-US')} MiB)`)

/**
 * The onGame setting at work: another process keeping the 3D engine busy with enough dedicated memory for a while
 * (GameWatch), or Game Mode, frees the VRAM: the running profile sleeps (stopped now; a client's request wakes it)
 * or stops (the endpoint refuses requests until the game ends), through the same parking as onBattery (a running
 * request finishes first); it comes back `backAfterS` after the game ends. The GPU's processes are read at the
 * watch's slow cadence only while the setting is not `keep` and a server of ours runs or waits to come back, and
 * never while the GPU sleeps (the reader's gate).
 */
export class GamePolicy {
  private readonly parking: ProfileParking
  private watch: GameWatch
  private timer: NodeJS.Timeout | null = null
  private readonly offSettings: () => void
  private acting: Promise<void> = Promise.resolve()
  private hold: GameHold | null = null
  private parkedFor: OnGameSetting | null = null
  private disposed = false

  constructor(private readonly deps: GamePolicyDeps) {
    this.parking = new ProfileParking(deps)
    this.watch = new GameWatch(() => deps.thresholds())
    this.offSettings = deps.onSettingsChange(() => this.settingsChanged())
    this.follow()
  }

  /**
   * The game holding the GPU, for the snapshot; null when none (or the watch is off). Once the user starts a profile
   * while the game runs ("Start" in the popover), that choice stands: the game is shown as kept beside it.
   */
  get game(): GameHold | null {
    return this.hold && this.hold.action !== 'kept' && this.userStarted() ? { ...this.hold, action: 'kept' } : this.hold
  }

  /**
   * Why the endpoint refuses requests now: onGame `stop` stopped the server for a game, until it ends. Null
   * otherwise (`sleep` lets a request wake the server).
   */
  refusal(): string | null {
    if (this.parkedFor !== 'stop' || !this.hold || this.userStarted()) return null
    return `${this.hold.name} holds the GPU, so the server is stopped until it ends (the onGame setting is stop).`
  }

  /** A server of ours runs although the policy parked it for the game: the user started one meanwhile. */
  private userStarted(): boolean {
    return this.parkedFor !== null && this.parking.running() !== null
  }

  /** Resolves once what the last look asked for is done (tests, and dispose). */
  settled(): Promise<void> {
    return this.acting
  }

  /** One look now (tests; the timer calls it at the cadence). */
  async lookNow(): Promise<void> {
    this.acting = this.acting.then(() => this.look()).catch(() => {})
    return this.acting
  }

  dispose(): void {
    this.disposed = true
    this.offSettings()
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }

  /**
   * The user set onGame to keep while a game holds the parked profile ("Keep running during games"): it comes back
   * now, beside the game, instead of after it.
   */
  private settingsChanged(): void {
    if (this.deps.onGame() === 'keep' && this.parkedFor !== null && this.hold) {
      const game = this.hold
      this.parkedFor = null
      this.acting = this.acting
        .then(async () => {
          const done = await this.parking.restore()
          this.hold = null
          if (done.kind === 'back') this.deps.say(`${game.name} still holds the GPU, but onGame is keep now: ${done.name} is back.`)
          else if (done.kind === 'failed') this.deps.say(`onGame is keep now, but ${done.name} could not start: ${done.sentence}`)
          this.follow()
          this.deps.changed()
        })
        .catch(() => {})
      return
    }
    this.follow()
  }

  /** Watches only while the setting asks for something or a profile waits to come back. */
  private follow(): void {
    const wanted = !this.disposed && (this.deps.onGame() !== 'keep' || this.parking.parked)
    if (wanted && !this.timer) this.arm()
    else if (!wanted && this.timer) {
      clearTimeout(this.timer)
      this.timer = null
      // Unwatched from now on: a game still running is seen afresh (and held for the hold time) once watched again.
      this.watch = new GameWatch(() => this.deps.thresholds())
      if (this.hold) {
        this.hold = null
        this.deps.changed()
      }
    }
  }

  private arm(): void {
    this.timer = setTimeout(() => {
      void this.lookNow().then(() => {
        if (this.timer && !this.disposed) this.arm()
      })
    }, this.deps.intervalMs ?? GAME_WATCH_INTERVAL_MS)
    this.timer.unref()
  }

  private now(): number {
    return (this.deps.now ?? Date.now)()
  }

  private async look(): Promise<void> {
    if (this.disposed) return
    // Nothing of ours to free and nothing to bring back: the GPU is left alone.
    if (this.parking.running() === null && !this.parking.parked && !this.hold) return
    const reading = await this.deps.reader.read(this.deps.ownPids())
    const processes: GameLook['processes'] = reading ? reading.processes : this.deps.reader.problem === GPU_ASLEEP ? 'asleep' : 'unknown'
    const change = this.watch.look(this.now(), {
      processes,
      gameMode: this.deps.gameMode?.() ?? null,
      fullScreen: this.deps.fullScreen?.() ?? null,
    })
    if (change?.kind === 'started') await this.started(change.game)
    else if (change?.kind === 'ended') await this.ended(change.game)
  }

  private async started(game: GameSeen): Promise<void> {
    const setting = this.deps.onGame()
    const base = { name: game.name, pid: game.pid, dedicatedMiB: game.dedicatedMiB, since: this.now() }
    if (setting === 'keep') {
      this.hold = { ...base, action: 'kept' }
      this.deps.changed()
      return
    }
    const done = await this.parking.park(null)
    const back = this.deps.thresholds().backAfterS
    if (done.kind === 'stopped') {
      this.parkedFor = setting
      this.hold = { ...base, action: setting === 'stop' ? 'stopped' : 'sleeping' }
      this.deps.say(
        setting === 'stop'
          ? `${game.name} holds the GPU${mib(game.dedicatedMiB)}: stopped ${done.name} to free its VRAM; it returns ${back} s after the game.`
          : `${game.name} holds the GPU${mib(game.dedicatedMiB)}: ${done.name} sleeps to free its VRAM; it returns ${back} s after the game.`,
      )
    } else this.hold = { ...base, action: 'kept' }
    this.deps.changed()
  }

  private async ended(game: GameSeen): Promise<void> {
    this.hold = null
    this.parkedFor = null
    const done = await this.parking.restore()
    this.follow()
    if (done.kind === 'back') this.deps.say(`${game.name} no longer holds the GPU: ${done.name} is back.`)
    else if (done.kind === 'failed')
      this.deps.say(`${game.name} no longer holds the GPU, but ${done.name} could not start: ${done.sentence}`)
    this.deps.changed()
  }
}
