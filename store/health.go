package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/mattn/go-sqlite3"
)

// Health checks, for an operator's /healthz. Ping proves little: it answers
// from the connections already open, with a deleted file, a full disk or a
// write lock another process holds for minutes. These check what a move
// needs.

// ErrUnhealthy is what every failed health check wraps.
var ErrUnhealthy = errors.New("database unhealthy")

// health is the state the checks share.
type health struct {
	// file is the database file as Open found it, to notice it deleted or
	// replaced under the open connections.
	file os.FileInfo

	mu    sync.Mutex
	probe *writeProbe // the write probe in flight, if any
	// damaged is the first SQLite error saying a page is damaged that a
	// write met since Open, and when.
	damaged   error
	damagedAt time.Time
}

// writeProbe is one heartbeat write; callers that come while it is in
// flight wait for it rather than queue another.
type writeProbe struct {
	started time.Time
	done    chan struct{}
	err     error
}

// CheckFile reports whether the database file is still the one Open opened,
// at its path. A deleted file keeps working through the open connections
// until nimbot restarts, and then every game is gone; a replaced one is no
// longer what nimbot writes to.
func (db *DB) CheckFile() error {
	fi, err := os.Stat(db.path)
	if err != nil {
		return fmt.Errorf("%w: the file %s: %v", ErrUnhealthy, db.path, unwrapPath(err))
	}
	if db.health.file != nil && !os.SameFile(fi, db.health.file) {
		return fmt.Errorf("%w: %s is no longer the file nimbot opened (it was replaced); restart nimbot", ErrUnhealthy, db.path)
	}
	return nil
}

// CheckWrite writes the heartbeat row through the store's writer, as a move
// would be written (BEGIN IMMEDIATE, queued behind the writes waiting, made
// durable by COMMIT), and waits for it until ctx ends. It fails when the
// write fails (disk full, file read-only, I/O error), when it has not
// finished by then (another process holds the write lock, or the disk
// stalls), and when a write has met a damaged page since Open. Only one
// probe runs at a time: callers meanwhile share its outcome.
func (db *DB) CheckWrite(ctx context.Context) error {
	h := &db.health
	h.mu.Lock()
	if h.damaged != nil {
		err := fmt.Errorf("%w: SQLite reported a damaged page at %s: %v; %v", ErrUnhealthy,
			h.damagedAt.UTC().Format(time.RFC3339), h.damaged, corruptAdvice)
		h.mu.Unlock()
		return err
	}
	p := h.probe
	if p == nil {
		p = &writeProbe{started: time.Now(), done: make(chan struct{})}
		h.probe = p
		go func() {
			p.err = db.withTx(context.Background(), func(ctx context.Context, tx queries, now time.Time) error {
				_, err := tx.ExecContext(ctx, heartbeatSQL, toMillis(now))
				return err
			})
			h.mu.Lock()
			h.probe = nil
			h.mu.Unlock()
			close(p.done)
		}()
	}
	h.mu.Unlock()
	select {
	case <-p.done:
		if p.err != nil {
			return fmt.Errorf("%w: writing: %v", ErrUnhealthy, p.err)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%w: a write has not finished after %v (another process holds the write lock, or the disk stalls)",
			ErrUnhealthy, time.Since(p.started).Round(time.Millisecond))
	}
}

// heartbeatSQL is CheckWrite's write.
const heartbeatSQL = `INSERT INTO heartbeat (id, at) VALUES (1, ?)
					ON CONFLICT (id) DO UPDATE SET at = excluded.at`

// noteDamage records err if it says SQLite met a damaged page, so that
// CheckWrite reports it until nimbot restarts (and Open's check refuses the
// file).
func (h *health) noteDamage(err error, now time.Time) {
	var se sqlite3.Error
	if !errors.As(err, &se) || se.Code != sqlite3.ErrCorrupt && se.Code != sqlite3.ErrNotADB {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.damaged == nil {
		h.damaged, h.damagedAt = err, now
	}
}

// CheckDisk returns the bytes free for nimbot on the file system that holds
// the database, and fails when fewer than min are: SQLite needs room to grow
// the write-ahead log and the file, and a full disk fails every move.
func (db *DB) CheckDisk(min uint64) (free uint64, err error) {
	free, err = freeBytes(filepath.Dir(db.path))
	if err != nil {
		return 0, fmt.Errorf("%w: free space of %s: %v", ErrUnhealthy, db.path, err)
	}
	if free < min {
		return free, fmt.Errorf("%w: only %d bytes free on the disk of %s (fewer than %d)", ErrUnhealthy, free, db.path, min)
	}
	return free, nil
}
