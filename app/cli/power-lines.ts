import type { Snapshot } from '../contract/snapshot'

/**
 * What the onBattery setting did, each notice once: returns a snapshot listener that calls `say` with every new
 * sentence (the CLI prints it on stderr, in JSON mode too).
 */
export function followPowerNotices(say: (sentence: string) => void): (snapshot: Snapshot) => void {
  let lastAt: number | null = null
  return (snapshot) => {
    const notice = snapshot.powerNotice
    if (!notice || notice.at === lastAt) return
    lastAt = notice.at
    say(notice.sentence)
  }
}
