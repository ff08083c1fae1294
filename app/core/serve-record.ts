import { mkdir, readdir, rm } from 'node:fs/promises'
import { readRunRecord, writeRunRecord } from '../supervisor/pid-file'
import { join, resolve } from 'node:path'
import { isProcessAlive } from '../lib/process/process-alive'

/**
 * How other `llama-tray` commands find a running endpoint of the same home (`serve`, or the app's): one file per process,
 * <home>/run/serve.<pid>.json, naming where its endpoint listens and the key file clients must use (the path,
 * never the key). A file whose process is gone (a crash, kill -9) is stale and removed when read.
 */
export interface ServeRecord {
  readonly pid: number
  /** http://host:port of the endpoint, as a client on this machine reaches it. */
  readonly origin: string
  /** The --api-key-file the endpoint checks requests against; null when it takes requests from this machine without a key. */
  readonly apiKeyFile: string | null
}

const NAME = /^serve\.(\d+)\.json$/

const fileFor = (home: string, pid: number): string => join(home, 'run', `serve.${pid}.json`)

export async function writeServeRecord(home: string, record: ServeRecord): Promise<void> {
  await mkdir(join(home, 'run'), { recursive: true })
  const apiKeyFile = record.apiKeyFile === null ? null : resolve(record.apiKeyFile)
  await writeRunRecord(fileFor(home, record.pid), { ...record, apiKeyFile })
}

export async function removeServeRecord(home: string, pid = process.pid): Promise<void> {
  await rm(fileFor(home, pid), { force: true })
}

/** The running serve of this home (the newest file whose process lives), else null. */
export async function findRunningServe(home: string): Promise<ServeRecord | null> {
  const names = await readdir(join(home, 'run')).catch(() => [] as string[])
  for (const name of names.sort().reverse()) {
    const pid = Number(NAME.exec(name)?.[1] ?? Number.NaN)
    if (!Number.isInteger(pid) || pid === process.pid) continue
    const file = join(home, 'run', name)
    if (!isProcessAlive(pid)) {
      await rm(file, { force: true })
      continue
    }
    try {
      const record = (await readRunRecord(file)) as ServeRecord
      if (typeof record.origin === 'string') return record
    } catch {
      // written by a serve that is starting: not usable yet, the next file may be
    }
  }
  return null
}

/** Removes the records of processes that are gone (a crash, kill -9): they would name endpoints that no longer run. */
export async function removeStaleServeRecords(home: string): Promise<void> {
  const names = await readdir(join(home, 'run')).catch(() => [] as string[])
  for (const name of names) {
    const pid = Number(NAME.exec(name)?.[1] ?? Number.NaN)
    if (Number.isInteger(pid) && pid !== process.pid && !isProcessAlive(pid)) await rm(join(home, 'run', name), { force: true })
  }
}
