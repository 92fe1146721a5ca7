package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"

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
// itself (nor its -wal, -shm or -journal file), nor an existing file that is
// not a SQLite database.
func (db *DB) Backup(ctx context.Context, dest string) error {
	latest, err := latestVersion()
	if err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	src, err := db.readers.Conn(ctx)
	if err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	defer src.Close()
	if _, err := writeBackup(ctx, src, db.path, dest, latest); err != nil {
		return fmt.Errorf("backup to %s: %w", dest, err)
	}
	return nil
}

// Backup copies the nimbot database at path to dest as (*DB).Backup does,
// with the same guarantees, without opening it as a store: it reads the file
// through one read-only connection, so it migrates nothing, takes no write
// lock and writes nothing to the file (SQLite may create its -wal and -shm
// files, as any reader of a database in WAL mode does). It is how to back
// up a database a running nimbot uses, whatever that nimbot's version: a
// newer binary backing up before an upgrade leaves the running bot's file
// as it is.
//
// A file at an older schema is copied as it is, so the nimbot that wrote it
// can restore the copy; Backup returns the schema version of the copy, for
// the caller to say which. It refuses, creating nothing at dest, a path with
// no file (fs.ErrNotExist), a file that is not a nimbot database or is an
// empty one (ErrNotDatabase), one whose schema is newer than this binary
// knows (migrations.ErrSchemaTooNew) and one with damaged pages
// (ErrCorrupt, found by the copy's check).
func Backup(ctx context.Context, path, dest string) (version int64, err error) {
	fail := func(err error) (int64, error) { return 0, fmt.Errorf("backup of %s to %s: %w", path, dest, err) }
	abs, err := filepath.Abs(path)
	if err != nil {
		return fail(err)
	}
	if err := checkSource(abs); err != nil {
		return fail(err)
	}
	latest, err := latestVersion()
	if err != nil {
		return fail(err)
	}
	// mode=ro: SQLite itself refuses any write through this connection,
	// and on closing it does not checkpoint the log into the file.
	db, err := sql.Open("sqlite3", dsn(abs, url.Values{
		"mode":          {"ro"},
		"_busy_timeout": {strconv.FormatInt(busyTimeout.Milliseconds(), 10)},
	}))
	if err != nil {
		return fail(err)
	}
	defer db.Close()
	src, err := db.Conn(ctx)
	if err != nil {
		return fail(readErr(err))
	}
	defer src.Close()
	// Refused before anything is written at dest. The copy's own schema
	// is checked again (writeBackup): a newer nimbot may migrate the file
	// between this read and the copy's.
	s, err := readSchema(ctx, src)
	if err != nil {
		return fail(readErr(err))
	}
	if err := s.check(latest, backupAdvice); err != nil {
		return fail(err)
	}
	if s.empty() {
		return fail(fmt.Errorf("%w: it is an empty database, with nothing to back up", ErrNotDatabase))
	}
	if version, err = writeBackup(ctx, src, abs, dest, latest); err != nil {
		return fail(err)
	}
	return version, nil
}

// backupAdvice is what to do with a database a newer nimbot has migrated.
const backupAdvice = "back it up with the nimbot that migrated it"

// checkSource says why the file at path, to be backed up, cannot be: it is
// missing, not a regular file, empty or not a SQLite database. It only
// reads.
func checkSource(path string) error {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("there is no database file there: %w", fs.ErrNotExist)
	}
	if err != nil {
		return unwrapPath(err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%w: it is not a regular file (%v)", ErrNotDatabase, fi.Mode().Type())
	}
	f, err := os.Open(path)
	if err != nil {
		return unwrapPath(err)
	}
	defer f.Close()
	empty, err := readHeader(f)
	if err != nil {
		return err
	}
	if empty {
		return fmt.Errorf("%w: the file is empty, with nothing to back up", ErrNotDatabase)
	}
	return nil
}

// readErr names the causes of a failed read of a database being backed up
// that people act on; the rest are SQLite's own.
func readErr(err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) && (se.Code == sqlite3.ErrNotADB || se.Code == sqlite3.ErrCorrupt) {
		return classify(err, 0)
	}
	return err
}

// writeBackup copies the database src reads (the file at srcPath) to dest
// through a checked temporary file, and returns the copy's schema version;
// it refuses a copy whose schema is newer than latest.
func writeBackup(ctx context.Context, src *sql.Conn, srcPath, dest string, latest int64) (int64, error) {
	abs, err := filepath.Abs(dest)
	if err != nil {
		return 0, err
	}
	if err := notDatabaseFile(abs, srcPath); err != nil {
		return 0, err
	}
	// An existing dest must be a SQLite file (an older backup) to be replaced.
	if _, err := checkFile(abs); err != nil {
		return 0, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(abs), "."+filepath.Base(abs)+".tmp-*")
	if err != nil {
		return 0, err
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
	version, err := copyTo(ctx, src, tmpPath, latest)
	if err != nil {
		return 0, err
	}
	if err := syncFile(tmpPath); err != nil {
		return 0, err
	}
	if err := os.Rename(tmpPath, abs); err != nil {
		return 0, err
	}
	keep = true
	// Make the rename itself durable.
	if err := syncFile(filepath.Dir(abs)); err != nil {
		return 0, err
	}
	return version, nil
}

// notDatabaseFile refuses dest when it is the database at db or one of the
// files SQLite keeps beside it: renamed over them, a copy would replace the
// live data or its log.
func notDatabaseFile(dest, db string) error {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		same, err := sameFile(dest, db+suffix)
		if err != nil {
			return err
		}
		if same || dest == db+suffix {
			what := "the database itself"
			if suffix != "" {
				what = "the database's " + suffix + " file"
			}
			return fmt.Errorf("%w: that is %s", match.ErrInvalid, what)
		}
	}
	return nil
}

// copyTo copies the database src reads to a new file at path, checks the
// copy's pages (PRAGMA quick_check) and returns its schema version, refusing
// a version past latest.
func copyTo(ctx context.Context, src *sql.Conn, path string, latest int64) (int64, error) {
	dst, err := sql.Open("sqlite3", dsn(path, url.Values{"_synchronous": {"FULL"}}))
	if err != nil {
		return 0, err
	}
	defer dst.Close()
	dstConn, err := dst.Conn(ctx)
	if err != nil {
		return 0, err
	}
	defer dstConn.Close()

	err = dstConn.Raw(func(dc any) error {
		d, ok := dc.(*sqlite3.SQLiteConn)
		if !ok {
			return fmt.Errorf("unexpected driver connection %T", dc)
		}
		return src.Raw(func(sc any) error {
			s, ok := sc.(*sqlite3.SQLiteConn)
			if !ok {
				return fmt.Errorf("unexpected driver connection %T", sc)
			}
			b, err := d.Backup("main", s, "main")
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
		return 0, readErr(err)
	}
	var check string
	if err := dstConn.QueryRowContext(ctx, `PRAGMA quick_check`).Scan(&check); err != nil {
		return 0, readErr(err)
	}
	if check != "ok" {
		return 0, corrupt("the copy of its pages fails PRAGMA quick_check: " + check)
	}
	// The copy is the snapshot: its schema is the one copied.
	s, err := readSchema(ctx, dstConn)
	if err != nil {
		return 0, err
	}
	if err := s.check(latest, backupAdvice); err != nil {
		return 0, err
	}
	return s.version, nil
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
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
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
