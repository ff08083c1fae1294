import { open as openZip, type Entry, type ZipFile } from 'yauzl'

/** Every entry of a zip as text, by name, read with yauzl (the reader the engine installer uses). */
export function readZipTexts(path: string): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    openZip(path, { lazyEntries: true }, (err, zip?: ZipFile) => {
      if (err || !zip) return reject(err ?? new Error(`cannot open ${path}`))
      const out = new Map<string, string>()
      zip.on('error', reject)
      zip.on('end', () => resolve(out))
      zip.on('entry', (entry: Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error(`cannot read ${entry.fileName}`))
          const chunks: Buffer[] = []
          stream.on('data', (c: Buffer) => chunks.push(c))
          stream.on('error', reject)
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks).toString('utf8'))
            zip.readEntry()
          })
        })
      })
      zip.readEntry()
    })
  })
}
