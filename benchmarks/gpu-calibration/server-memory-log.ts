/** Memory llama-server reported for one model (bytes), from its -lv 4 log. */
export interface ReportedMemory {
  weights: number
  kv: number
  recurrent: number
  compute: number
}

export interface ReportedDevices {
  readonly gpu: ReportedMemory
  readonly host: ReportedMemory
}

const MIB = 1024 * 1024
const MODEL = /load_tensors:\s+(\S+) model buffer size =\s+([\d.]+) MiB/
const KV = /llama_kv_cache:\s+(\S+) KV buffer size =\s+([\d.]+) MiB/
const RS = /llama_memory_recurrent:\s+(\S+) RS buffer size =\s+([\d.]+) MiB/
const COMPUTE = /sched_reserve:\s+(\S+) compute buffer size =\s+([\d.]+) MiB/
const NEW_MODEL = /load_tensors: loading model tensors/

function isHost(buffer: string): boolean {
  return buffer.startsWith('CPU') || /_Host$/i.test(buffer)
}

function empty(): ReportedMemory {
  return { weights: 0, kv: 0, recurrent: 0, compute: 0 }
}

/**
 * Splits a -lv 4 log into one report per loaded model, in load order (the
 * target, then the draft): model, KV and recurrent buffers summed per device;
 * a compute buffer reserved again replaces the earlier figure.
 */
export function parseServerMemoryLog(text: string): ReportedDevices[] {
  const out: { gpu: ReportedMemory; host: ReportedMemory; compute: Map<string, number> }[] = []
  let cur: (typeof out)[number] | undefined
  for (const line of text.split('\n')) {
    if (NEW_MODEL.test(line)) {
      cur = { gpu: empty(), host: empty(), compute: new Map() }
      out.push(cur)
      continue
    }
    if (!cur) continue
    let m: RegExpExecArray | null
    if ((m = MODEL.exec(line))) cur[isHost(m[1] as string) ? 'host' : 'gpu'].weights += Number(m[2]) * MIB
    else if ((m = KV.exec(line))) cur[isHost(m[1] as string) ? 'host' : 'gpu'].kv += Number(m[2]) * MIB
    else if ((m = RS.exec(line))) cur[isHost(m[1] as string) ? 'host' : 'gpu'].recurrent += Number(m[2]) * MIB
    else if ((m = COMPUTE.exec(line))) cur.compute.set(m[1] as string, Number(m[2]) * MIB)
  }
  return out.map((r) => {
    for (const [buffer, bytes] of r.compute) r[isHost(buffer) ? 'host' : 'gpu'].compute += bytes
    return { gpu: r.gpu, host: r.host }
  })
}
