// Package store keeps nimbot's games in SQLite (github.com/mattn/go-sqlite3)
// so that they survive restarts, races and crashes. *DB implements
// match.Storage, the storage contract; the types it keeps (match.Game,
// match.Change, …) are match's.
//
// It only persists. The rules are match's: store writes down the game the
// caller computed (a match.Change), checks it with match's own checks
// (Change.Check before the transaction, Change.Fit with the game read inside
// it), and records a finished game's result as match.Game.Result and
// match.EloDelta say; it decides no status, winner or rating itself. It
// must not know Discord or the product's messages. Its own concerns are
// SQLite's: the schema and migrations, transactions, locking, durability,
// backups and pruning. The contract is tested once, against this store and
// store/postgres alike, by internal/storetest; store's own tests keep what
// only SQLite has (triggers, files, connection settings, crashes).
//
// The schema is in the migrations package (numbered .sql files, applied by
// pressly/goose when Open runs); read those files for the tables, indexes and
// the rules the database itself enforces: at most one pending-or-active game
// per channel, a move only at the game's current ply, foreign keys. Open
// migrates only with the file to itself (SQLite's exclusive locking mode):
// while another process has the file open, a nimbot of the earlier release
// still running on it, Open fails with ErrLocked instead of changing the
// schema under it. A file already at the latest schema is opened beside
// other processes.
//
// The database path comes from the caller: nimbot reads DATABASE_PATH and
// defaults to ./nimbot.db.
//
// Concurrency. Every method is safe for concurrent use. Each write is one
// BEGIN IMMEDIATE transaction: it takes SQLite's write lock before reading,
// so a read-then-write (check the ply, then apply the move) can neither see a
// stale row nor fail half-way with "database is locked" on upgrade. Within a
// process writers queue for a single connection (cheaper than SQLite's
// sleeping busy handler), and the writes that queue while one commits share
// the next transaction, so one fsync makes them all durable (group commit;
// a failing write fails alone, and no caller hears of its write before the
// COMMIT). The callers commit the batches themselves, one at a time
// (writer.go). Across processes the busy timeout (5 s) applies. Reads use a
// separate pool of read-only connections and, in WAL mode, never wait for
// writers. Every query goes through database/sql as a statement prepared
// once at Open (stmts.go), with the caller's context. SQLite copies the
// write-ahead log back into the file itself (its automatic checkpoint), and
// its own VFS does the file I/O.
//
// Durability. Config.Synchronous FULL (the default) makes every acknowledged
// Commit survive power loss; NORMAL survives a crash of the process but may
// lose the last transactions on power loss, in exchange for fewer fsyncs.
//
// Forgetting (privacy.go, match.Privacy) is a handful of set-based
// statements in one write transaction per user or server: rare, so it may
// scan the games and saved answers rather than make every move pay for an
// index by player.
//
// Errors callers tell apart are match's: match.ErrNotFound, match.ErrStale
// (a stale board or a double click), match.ErrDuplicate (an interaction
// already answered), match.ErrChannelBusy (with *match.BusyError),
// match.ErrInvalid; Open's failures are *OpenError wrapping ErrUnwritable,
// ErrNotDatabase, migrations.ErrSchemaTooNew, ErrLocked or ErrCorrupt.
//
// Backups. (*DB).Backup copies an open store's database; Backup copies a
// file without opening it as a store (no migration, no write lock: it only
// reads), so a newer binary can back up the file an older one is running on
// before an upgrade, at that one's schema. Both copy one snapshot while
// writers carry on, check the copy and rename it into place.
//
// Checks at Open. An existing file is checked with PRAGMA quick_check before
// anything uses it: whole when it is at most Config.FullCheckBytes (256 MiB
// by default), else for at most Config.CheckTimeout (5 s), tables and
// indexes in order. A damaged page fails Open with ErrCorrupt and the
// recovery (restore a backup made with `nimbot backup`), instead of starting
// and then answering moves with "that game no longer exists". The check
// runs in a read transaction, after the write lock has been taken only to
// read the schema, so a process already running on the file keeps
// committing while another opens it.
package store
