// Package postgres keeps nimbot's games in PostgreSQL, for bots that outgrow
// one machine: several processes (serve instances behind a load balancer,
// gateway shards) share one database, and the database alone decides every
// race between them.
//
// *DB implements match.Storage, the storage contract the SQLite store
// (package store) implements too, with match's types and errors, and passes
// the same contract suite (internal/storetest). Like store it only
// persists: statuses, winners and ratings are match's rules (Change.Check,
// Change.Fit, Game.Result, EloDelta), written down here. Its schema is in migrations/postgres,
// applied by goose when Open runs; every rule the SQLite schema enforces is
// enforced here by PostgreSQL itself: one pending-or-active game per channel
// (a partial unique index), a move only at the game's current ply with
// games.ply the number of moves (a trigger that locks the game's row),
// append-only moves, interaction ids answered once (a primary key).
//
// Concurrency. PostgreSQL runs transactions at READ COMMITTED, so each write
// locks what it decides on before reading it: Commit locks the game's row
// (SELECT … FOR UPDATE) and then checks its ply and status, so of two clicks
// on one board through two instances exactly one applies and the other gets
// match.ErrStale. An interaction is claimed by inserting its row, so a
// redelivery racing its first delivery on another instance waits for it and
// then gets match.ErrDuplicate. Statistics rows are locked in one order
// (by user id) so two results for the same players cannot deadlock; a
// deadlock or serialization failure PostgreSQL reports anyway is retried.
// ClaimDue, which commands' Expire uses where the store has it, leases the
// due games it returns to one caller (games.claimed_until, set under FOR
// UPDATE SKIP LOCKED in the same statement), so instances polling together
// never work on the same game; a Commit ends the lease, and a dead
// claimer's games go to the first ClaimDue after it passes (at most the
// lease plus one polling interval late). Firing a deadline is still a
// Commit at the game's ply, so it happens once however many instances saw
// it due. PruneInteractions runs in one
// instance at a time (each batch takes a transaction advisory lock without
// waiting); the others return at once. ForgetDue takes each due user's row
// FOR UPDATE SKIP LOCKED and deletes it in the transaction that forgets the
// user; ForgetIdle's daily sweep runs in the instance whose upsert moves the
// sweeps row forward.
//
// Round trips. The server answers in microseconds; what a write costs is
// mostly its round trips and its wait for the commit to reach the disk. A
// write transaction is sent as batches (pgx's pipeline mode, one round
// trip each, see tx): BEGIN with every statement whose results the
// transaction must see before deciding, COMMIT with the rest. A move that
// leaves the game live is one batch, COMMIT included: the game's lock, then
// writes guarded by its ply and status (and, after the moves, by the row
// being this transaction's; with match.Change.Seen, by its board message
// and the mover's hint too), which change nothing when match's rules,
// checked in Go on the locked row, refuse the turn. A move that ends the
// game is two (the result and statistics go out with COMMIT; a rated game
// reads its ratings in one more). A hint is one statement; so are a saved
// answer and a read. The board a move is decided on is one read more,
// unless commands decided it on the board it kept from the game's last
// commit (Seen). Errors that say the server
// is down, restarting or unreachable are match.ErrUnavailable, which
// commands answers with "the database is not answering", not an apology
// for a bug.
//
// Driver. pgx v5 natively, through pgxpool (DefaultMaxConns connections
// unless the URL's pool_max_conns says otherwise): its binary protocol, its
// per-connection statement cache (the prepared statements the SQLite store
// manages by hand) and its typed errors (pgconn.PgError codes, not message
// text). Each statement is planned once per connection
// (plan_cache_mode=force_generic_plan, a connection parameter: see Open).
// database/sql appears only for goose's migrations, through pgx's stdlib
// adapter on the same pool.
package postgres
