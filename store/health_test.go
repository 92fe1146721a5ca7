package store

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCheckFile(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		db := mustOpen(t)
		if err := db.CheckFile(); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("Deleted", func(t *testing.T) {
		db := mustOpen(t)
		if err := os.Remove(db.Path()); err != nil {
			t.Fatal(err)
		}
		// The open connections still work: only the check notices.
		if err := db.Ping(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err := db.CheckFile(); !errors.Is(err, ErrUnhealthy) || !strings.Contains(err.Error(), "no such file") {
			t.Fatalf("deleted file: %v", err)
		}
	})
	t.Run("Replaced", func(t *testing.T) {
		db := mustOpen(t)
		other := filepath.Join(t.TempDir(), "other.db")
		mustOpenPath(t, other, "").Close()
		if err := os.Rename(other, db.Path()); err != nil {
			t.Fatal(err)
		}
		if err := db.CheckFile(); !errors.Is(err, ErrUnhealthy) || !strings.Contains(err.Error(), "replaced") {
			t.Fatalf("replaced file: %v", err)
		}
	})
}

func TestCheckWrite(t *testing.T) {
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		db := mustOpen(t)
		if err := db.CheckWrite(ctx); err != nil {
			t.Fatal(err)
		}
		var at int64
		if err := db.readers.QueryRow(`SELECT at FROM heartbeat`).Scan(&at); err != nil || at == 0 {
			t.Fatalf("heartbeat %d, %v", at, err)
		}
	})
	t.Run("LockedByAnotherProcess", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "nimbot.db")
		db := mustOpenPath(t, path, "")
		c := startChild(t, "lock", path)
		t.Cleanup(func() { c.kill() })
		if line := c.waitFirst(t); line != "locked" {
			t.Fatalf("lock child said %q", line)
		}
		short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
		defer cancel()
		start := time.Now()
		err := db.CheckWrite(short)
		if !errors.Is(err, ErrUnhealthy) || !strings.Contains(err.Error(), "write lock") {
			t.Fatalf("with the write lock held: %v", err)
		}
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("the check took %v, not bounded by its context", took)
		}
		c.kill()
		// The pending probe ends (its busy timeout, or the lock freed); then
		// writes work again.
		deadline := time.Now().Add(10 * time.Second)
		for db.CheckWrite(ctx) != nil {
			if time.Now().After(deadline) {
				t.Fatal("writes never recovered after the lock was released")
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
	t.Run("DamagedPage", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "nimbot.db")
		db := mustOpenPath(t, path, "")
		fillInteractions(t, db, "i", 3000, 900, epoch)
		db.Close()
		db = mustOpenPath(t, path, "")
		garbleMiddle(t, path)
		if _, err := db.PruneInteractions(ctx, epoch.Add(time.Hour)); err == nil {
			t.Fatal("pruning through damaged pages succeeded")
		}
		if err := db.CheckWrite(ctx); !errors.Is(err, ErrUnhealthy) || !strings.Contains(err.Error(), "damaged") {
			t.Fatalf("after a write met a damaged page: %v", err)
		}
	})
}

func TestCheckDisk(t *testing.T) {
	db := mustOpen(t)
	free, err := db.CheckDisk(1)
	if err != nil || free == 0 {
		t.Fatalf("free %d, %v", free, err)
	}
	if _, err := db.CheckDisk(1 << 62); !errors.Is(err, ErrUnhealthy) || !strings.Contains(err.Error(), "bytes free") {
		t.Fatalf("below the minimum: %v", err)
	}
}

// TestCheckFullDisk fills a real (tmpfs) disk under an open database: the
// disk check fails, and so do writes. It needs root to mount.
func TestCheckFullDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a small file system needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	db, err := Open(context.Background(), Config{Path: filepath.Join(dir, "nimbot.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.CheckWrite(context.Background()); err != nil {
		t.Fatal(err)
	}
	fill, err := os.Create(filepath.Join(dir, "fill"))
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := fill.Write(make([]byte, 64<<10)); err != nil {
			break
		}
	}
	fill.Close()
	if _, err := db.CheckDisk(1 << 20); !errors.Is(err, ErrUnhealthy) {
		t.Errorf("full disk: disk check says %v", err)
	}
	// Writes that need new pages fail.
	resp := make([]byte, 900)
	var werr error
	for i := 0; i < 5000 && werr == nil; i++ {
		werr = db.SaveResponse(context.Background(), "full-"+string(rune('a'+i%26))+strings.Repeat("x", i%50)+time.Now().String(), resp)
	}
	if werr == nil {
		t.Fatal("writes kept succeeding on a full disk")
	}
	t.Logf("a write on the full disk: %v", werr)
}
