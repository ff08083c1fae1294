// A second process writing the history: `node writer-child.mjs <file> <tag> <count>` records <count>
// requests tagged <tag> in its path, one every few ms (so its flushes interleave with another writer's), then closes.
import { HistoryStore } from '../../../app/history/history-store'
import { historyRequest } from './rows'

const [file, tag, count] = process.argv.slice(2) as [string, string, string]
const store = new HistoryStore(file)
for (let i = 0; i < Number(count); i++) {
  store.recordRequest(historyRequest({ path: `/${tag}/${i}` }))
  await new Promise((r) => setTimeout(r, 2))
  if (i % 50 === 0) await store.flush()
}
await store.close()
process.stdout.write('done\n')
