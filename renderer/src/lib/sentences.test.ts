import { describe, expect, it } from 'vitest'
import { splitFirstSentence } from './sentences'

describe('splitFirstSentence', () => {
  it('splits at the first full stop followed by a new sentence', () => {
    expect(splitFirstSentence('Only 740 MiB of VRAM free. On Windows the driver spills into RAM. Keep 1.5 GB free.')).toEqual({
      first: 'Only 740 MiB of VRAM free.',
      rest: 'On Windows the driver spills into RAM. Keep 1.5 GB free.',
    })
  })
  it('does not split inside numbers, flags or file names', () => {
    expect(splitFirstSentence('Keep 1.5 GB free with -ngl 99 and model.gguf loaded')).toEqual({
      first: 'Keep 1.5 GB free with -ngl 99 and model.gguf loaded',
      rest: '',
    })
  })
  it('a single sentence has no rest', () => {
    expect(splitFirstSentence('The GPU is at 88 °C.')).toEqual({ first: 'The GPU is at 88 °C.', rest: '' })
  })
})
