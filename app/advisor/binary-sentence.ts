import { asSentence } from '../contract/wording'
import { forkAndVersion } from '../profiles/flag-check'
import type { BinaryView } from './lint-input'

/**
 * A flag check's message as a finding's sentence. The check names the binary first ("mainline 0.5.0-dev removed
 * --no-mmap: …", "ik_llama.cpp 4840 has no -lm: …"), which cannot start a sentence: it becomes
 * "This binary (mainline 0.5.0-dev) removed --no-mmap: …." with a capital and a full stop.
 */
export function binarySentence(message: string, binaryInfo: BinaryView): string {
  const who = forkAndVersion(binaryInfo)
  return asSentence(message.startsWith(who) ? `This binary (${who})${message.slice(who.length)}` : message)
}
