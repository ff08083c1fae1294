import { request } from 'node:http'

/** POSTs a JSON body to a loopback server (a fresh connection each time) and parses the JSON answer. */
export function postJson(port: number, path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const options = { host: '127.0.0.1', port, path, method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }
    const req = request(options, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (text += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as Record<string, unknown> }))
    })
    req.on('error', reject)
    req.end(JSON.stringify(body))
  })
}
