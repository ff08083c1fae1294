/**
 * Test helper process for the json-store tests (bundled by them, never shipped). Commands:
 *   hold-lock <file>      takes the file's lock, prints "locked" and waits to be killed
 *   watch <file>          prints "watching", then the items each time another process changes the file
 *   add <file> <item>     appends an item through update() and exits
 */
import { withFileLock } from '../../../app/lib/json-store/file-lock'
import { openJsonStore } from '../../../app/lib/json-store/registry'
import { listStore } from './list-store'

async function main(command: string | undefined, file: string, item: string | undefined): Promise<void> {
  if (command === 'hold-lock') {
    await withFileLock(file, async () => {
      process.stdout.write('locked\n')
      // Holds the lock (and keeps the process alive) until the test kills it.
      await new Promise(() => setInterval(() => {}, 60_000))
    })
  } else if (command === 'watch') {
    const store = openJsonStore(listStore(file))
    await store.load()
    store.onDidChange((value) => process.stdout.write(`${value.items.join(',')}\n`))
    // The watcher does not keep the process alive; this timer does, until the test kills it.
    setInterval(() => {}, 60_000)
    process.stdout.write('watching\n')
  } else if (command === 'add') {
    await openJsonStore(listStore(file)).update((value) => ({ ...value, items: [...value.items, item ?? ''] }))
  } else throw new Error(`unknown command ${command}`)
}

void main(process.argv[2], process.argv[3] as string, process.argv[4])
