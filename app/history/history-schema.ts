/**
 * The history database's schema, as numbered migrations.
 *
 * PRAGMA user_version holds how many have run; a database from a newer Llama
 * Tray (a higher version) is left alone and read as far as its tables allow.
 */
export const HISTORY_MIGRATIONS: readonly string[] = [
  `CREATE TABLE requests (
     id INTEGER PRIMARY KEY,
     time INTEGER NOT NULL,
     profile_id TEXT, profile_name TEXT, engine TEXT, engine_version TEXT, model TEXT,
     path TEXT NOT NULL, status INTEGER NOT NULL,
     prompt_tokens INTEGER, cached_tokens INTEGER, generated_tokens INTEGER,
     draft_tokens INTEGER, draft_accepted INTEGER,
     prompt_per_second REAL, generation_per_second REAL,
     ttft_ms REAL, duration_ms REAL NOT NULL, energy_j REAL, error TEXT
   );
   CREATE INDEX requests_time ON requests (time);
   CREATE INDEX requests_profile_time ON requests (profile_id, time);
   CREATE TABLE sessions (
     key TEXT PRIMARY KEY,
     kind TEXT NOT NULL,
     profile_id TEXT, profile_name TEXT, engine TEXT, engine_version TEXT, model TEXT,
     driver_version TEXT, launch_digest TEXT,
     started_at INTEGER NOT NULL, ready_at INTEGER, stopped_at INTEGER,
     ended TEXT NOT NULL, load_ms REAL, placement_retry INTEGER NOT NULL DEFAULT 0,
     generation_per_second REAL, prompt_per_second REAL
   );
   CREATE INDEX sessions_started ON sessions (started_at);
   CREATE TABLE days (
     day TEXT NOT NULL, profile_id TEXT NOT NULL DEFAULT '', profile_name TEXT,
     requests INTEGER NOT NULL, errors INTEGER NOT NULL,
     prompt_tokens INTEGER NOT NULL, cached_tokens INTEGER NOT NULL, generated_tokens INTEGER NOT NULL,
     draft_tokens INTEGER NOT NULL, draft_accepted INTEGER NOT NULL,
     prompt_ms REAL NOT NULL, generation_ms REAL NOT NULL, timed_prompt_tokens INTEGER NOT NULL,
     timed_generated_tokens INTEGER NOT NULL, duration_ms REAL NOT NULL, energy_j REAL,
     PRIMARY KEY (day, profile_id)
   );`,
]

/** The schema version this Llama Tray writes. */
export const HISTORY_SCHEMA_VERSION = HISTORY_MIGRATIONS.length
