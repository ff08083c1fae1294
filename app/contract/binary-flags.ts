import { fieldSpellings, replacementFor } from './flag-args'
import type { ProfileFieldKey } from './flag-registry'
import type { BinaryFlags } from './profile'

export type { BinaryFlags }

/**
 * Whether this binary takes a spelling: its --help lists it, or it is ik_llama.cpp, whose help leaves out some flags it accepts
 * (-ngl in a CPU build), and the spelling is not one we know it rejects (as the core's flag check reads it). With no
 * binary known, or a help that could not be read, every flag is taken.
 */
export function acceptsFlag(binary: BinaryFlags | null, spelling: string): boolean {
  if (!binary || binary.flags.length === 0) return true
  if (binary.flags.includes(spelling)) return true
  // Left out of ik_llama.cpp's help yet taken, unless we know it rejects it: a replacement is known, or it is -lm on a build
  // that says --no-mmap.
  if (binary.fork !== 'ik_llama' || replacementFor(spelling) !== undefined) return false
  return !(fieldSpellings('loadMode').includes(spelling) && binary.flags.includes('--no-mmap'))
}

/** The spelling a typed setting is written with for this binary (the registry's order), or null when the binary takes none. */
export function fieldSpellingFor(field: ProfileFieldKey, binary: BinaryFlags | null): string | null {
  return fieldSpellings(field).find((s) => acceptsFlag(binary, s)) ?? null
}

/**
 * How "load the weights into RAM, no memory map" is said to this binary: --no-mmap, -lm none, not at all (null), or "either"
 * when the binary is not known yet (the gate writes its spelling once it is).
 */
export type NoMmapSpelling = 'no-mmap' | 'load-mode' | 'either' | null

export function noMmapSpelling(binary: BinaryFlags | null): NoMmapSpelling {
  if (!binary || binary.flags.length === 0) return 'either'
  if (fieldSpellingFor('noMmap', binary) !== null) return 'no-mmap'
  return fieldSpellingFor('loadMode', binary) !== null ? 'load-mode' : null
}
