/**
 * The fixed prompt set: a narrative and a code prompt, as in the seed's table
 * (decode speed differs with what is generated, and with a draft the
 * acceptance does). Fixed text, so prompt speed is comparable across runs.
 */
export interface BenchPrompt {
  readonly name: string
  readonly text: string
}

const NARRATIVE = `Write the opening chapter of a novel set in a small fishing town on a cold northern coast.
The narrator is an old lighthouse keeper who has kept a diary for forty years. One winter night a ship
appears in the fog with no lights and no crew on deck, and the keeper rows out alone to meet it. Describe
the harbour, the weather, the smell of salt and tar, the sound of the bell buoy, the people who gather on
the pier at dawn, and the keeper's memories of his late wife, who used to mend the nets by the window.
Keep a calm, patient tone, with long sentences and careful detail, and end the chapter on a question.`

const CODE = `Write a TypeScript module that implements a least-recently-used cache with a fixed capacity.
Requirements: a generic class LruCache<K, V> with get(key), set(key, value), has(key), delete(key),
clear() and a size getter; O(1) operations using a Map and a doubly linked list; an optional onEvict
callback called with the evicted key and value; an iterator that yields entries from most to least
recently used. Include JSDoc comments, input validation that throws a RangeError for a capacity below 1,
and a set of unit tests written with vitest that cover eviction order, updates of existing keys,
deletion of the head and the tail, and iteration after many operations.`

export const BENCH_PROMPTS: readonly BenchPrompt[] = [
  { name: 'narrative', text: NARRATIVE },
  { name: 'code', text: CODE },
]

/** Fixed sampling seed, so every run draws the same tokens. */
export const BENCH_SEED = 1234
