/** A typed set of event listeners; a throwing listener never breaks the others. */
export class Listeners<Events extends { [K in keyof Events]: (...args: never[]) => void }> {
  private readonly map = new Map<keyof Events, Set<(...args: never[]) => void>>()

  on<K extends keyof Events>(event: K, listener: Events[K]): () => void {
    let set = this.map.get(event)
    if (!set) this.map.set(event, (set = new Set()))
    set.add(listener)
    return () => void set.delete(listener)
  }

  emit<K extends keyof Events>(event: K, ...args: Parameters<Events[K]>): void {
    const set = this.map.get(event)
    if (!set) return
    for (const listener of [...set]) {
      try {
        ;(listener as (...a: Parameters<Events[K]>) => void)(...args)
      } catch (err) {
        // A view's bug must not take the supervisor down with it.
        process.emitWarning(`listener for ${String(event)} threw: ${err instanceof Error ? err.message : String(err)}`)
      }
    }
  }

  clear(): void {
    this.map.clear()
  }
}
