/**
 * Test helper process for store.test.ts (bundled by the test, never shipped):
 * saves the profiles file in a loop, printing each counter once it is saved,
 * until it is killed. The counter is kept in the first profile's notes.
 */
import { ProfileStore } from '../../../app/profiles/store'

async function main(home: string): Promise<void> {
  const store = await ProfileStore.open(home)
  for (;;) {
    const n = Number(store.file.profiles[0]?.notes.split(' ')[0] ?? 0) + 1
    // Vary the size so that a partial write could not pass for a whole one.
    const padding = 'x'.repeat((n * 7919) % 600)
    const now = new Date().toISOString()
    await store.update((file) => ({
      ...file,
      profiles: [
        {
          id: 'loop',
          name: 'loop',
          binary: '',
          model: 'm.gguf',
          settings: { ctxSize: n },
          extraArgs: [],
          env: {},
          notes: `${n} ${padding}`,
          createdAt: now,
          updatedAt: now,
        },
      ],
    }))
    process.stdout.write(`${n}\n`)
  }
}

void main(process.argv[2] as string)
