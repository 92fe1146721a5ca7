package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"github.com/mattn/go-sqlite3"

	"nimbot/match"
)

// Backup writes a consistent copy of the database to dest with SQLite's
// online backup API, while the bot keeps running.
//
// The copy is taken in one step from one read transaction: in WAL mode
// writers carry on meanwhile, and the copy is the database as of that
// transaction's start, never a mix. It is written to a temporary file beside
// dest, checked (PRAGMA quick_check) and renamed over dest, so dest is always
// either the previous file or a complete copy. dest must not be the database
// itself, nor an existing file that is not a SQLite database.
func (db *DB) Backup(ctx context.Context, dest string) error {
	abs, err := filepath.Abs(dest)
	if err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	if same, err := sameFile(abs, db.path); err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	} else if same {
		return fmt.Errorf("backup to %s: %w: that is the database itself", dest, match.ErrInvalid)
	}
	// An existing dest must be a SQLite file (an older backup) to be replaced.
	if _, err := checkFile(abs); err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(abs), "."+filepath.Base(abs)+".tmp-*")
	if err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	tmpPath := tmp.Name()
	tmp.Close()
	keep := false
	defer func() {
		if !keep {
			os.Remove(tmpPath)
			os.Remove(tmpPath + "-wal")
			os.Remove(tmpPath + "-shm")
			os.Remove(tmpPath + "-journal")
		}
	}()
	if err := db.backupTo(ctx, tmpPath); err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	if err := syncFile(tmpPath); err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	if err := os.Rename(tmpPath, abs); err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	keep = true
	// Make the rename itself durable.
	if err := syncFile(filepath.Dir(abs)); err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	return nil
}

func (db *DB) backupTo(ctx context.Context, path string) error {
	dst, err := sql.Open("sqlite3", dsn(path, url.Values{"_synchronous": {"FULL"}}))
	if err != nil {
		return err
	}
	defer dst.Close()
	dstConn, err := dst.Conn(ctx)
	if err != nil {
		return err
	}
	defer dstConn.Close()
	srcConn, err := db.readers.Conn(ctx)
	if err != nil {
		return err
	}
	defer srcConn.Close()

	err = dstConn.Raw(func(dc any) error {
		d, ok := dc.(*sqlite3.SQLiteConn)
		if !ok {
			return fmt.Errorf("unexpected driver connection %T", dc)
		}
		return srcConn.Raw(func(sc any) error {
			s, ok := sc.(*readConn)
			if !ok {
				return fmt.Errorf("unexpected driver connection %T", sc)
			}
			b, err := d.Backup("main", s.SQLiteConn, "main")
			if err != nil {
				return err
			}
			// -1: every page in one step, under one read transaction on
			// the source. Copying in smaller steps would let the source
			// change between them and restart the copy each time a writer
			// commits, which under steady play might never finish.
			done, err := b.Step(-1)
			if ferr := b.Finish(); err == nil {
				err = ferr
			}
			if err == nil && !done {
				err = errors.New("backup did not complete")
			}
			return err
		})
	})
	if err != nil {
		return err
	}
	var check string
	if err := dstConn.QueryRowContext(ctx, `PRAGMA quick_check`).Scan(&check); err != nil {
		return err
	}
	if check != "ok" {
		return fmt.Errorf("the copy fails quick_check: %s", check)
	}
	return nil
}

// sameFile reports whether a and b name the same existing file.
func sameFile(a, b string) (bool, error) {
	ai, err := os.Stat(a)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	bi, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(ai, bi), nil
}

// syncFile flushes a file or folder to stable storage.
func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
