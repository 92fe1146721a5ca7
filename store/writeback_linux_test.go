package store

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// SQLite's lock bytes in the database file (os.h): a connection in WAL
// mode holds a read lock on the shared range for as long as it is open.
const (
	sqlitePendingByte = 0x40000000
	sqliteSharedFirst = sqlitePendingByte + 2
	sqliteSharedSize  = 510
)

// The checkpointer's own descriptor of the database file must never drop
// the locks SQLite holds on it: closing any descriptor of a file drops
// every POSIX lock the process holds there. After write-backs have run,
// another process still finds the shared range read-locked by this one.
func TestWritebackKeepsSQLiteLocks(t *testing.T) {
	db := checkpointedStore(t)
	if db.checkpoints.started() == 0 {
		t.Fatal("no write-back started")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockProbe$")
	cmd.Env = append(os.Environ(), "NIMBOT_LOCK_PROBE="+db.Path())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("lock probe: %v\n%s", err, out)
	}
	want := fmt.Sprintf("read lock held by %d", os.Getpid())
	if !strings.Contains(string(out), want) {
		t.Fatalf("another process finds the database's shared range %q, want %q", strings.TrimSpace(string(out)), want)
	}
}

// TestLockProbe is TestWritebackKeepsSQLiteLocks's other process: it says
// who holds a lock on the shared range of the database at
// $NIMBOT_LOCK_PROBE. Run alone, it does nothing.
func TestLockProbe(t *testing.T) {
	path := os.Getenv("NIMBOT_LOCK_PROBE")
	if path == "" {
		t.Skip("run by TestWritebackKeepsSQLiteLocks")
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: sqliteSharedFirst, Len: sqliteSharedSize}
	if err := unix.FcntlFlock(f.Fd(), unix.F_GETLK, &lk); err != nil {
		t.Fatal(err)
	}
	switch lk.Type {
	case unix.F_RDLCK:
		fmt.Printf("read lock held by %d\n", lk.Pid)
	case unix.F_UNLCK:
		fmt.Println("no lock")
	default:
		fmt.Printf("lock type %d held by %d\n", lk.Type, lk.Pid)
	}
}
