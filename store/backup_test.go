package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"nimbot/match"
)

// TestBackup copies the database while games are being played and checks
// the copy is a whole, consistent nimbot database.
func TestBackup(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := mustOpenPath(t, filepath.Join(dir, "nimbot.db"), "NORMAL")
	for i := range 20 {
		mustCreate(t, db, newGame(fmt.Sprint("c", i), [2]string{"alice", "bob"}, 40, 40))
	}

	stop := make(chan struct{})
	var commits atomic.Int64
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				g, err := db.ChannelGame(ctx, fmt.Sprint("c", (i*5+n)%20))
				if errors.Is(err, match.ErrNotFound) {
					continue
				}
				if err != nil {
					t.Error(err)
					return
				}
				h := 0
				if g.Position.Heaps[0] == 0 {
					h = 1
				}
				c, err := change(g, take(h, 1))
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := db.Commit(ctx, c); err != nil && !errors.Is(err, match.ErrStale) {
					t.Error(err)
					return
				}
				commits.Add(1)
			}
		})
	}
	// Back up several times while the writers run; each copy must open as a
	// nimbot database and hold only whole games.
	for i := range 3 {
		for commits.Load() < int64(50*(i+1)) {
			if t.Failed() {
				break
			}
			runtime.Gosched()
		}
		dest := filepath.Join(dir, "backup.db") // replaced each time
		if err := db.Backup(ctx, dest); err != nil {
			t.Fatal(err)
		}
		copyDB := mustOpenPath(t, dest, "")
		if n := checkGames(t, copyDB); n != 20 {
			t.Fatalf("backup %d holds %d games", i, n)
		}
		copyDB.Close()
	}
	close(stop)
	wg.Wait()
	t.Logf("%d commits during the backups", commits.Load())

	t.Run("NotOverItself", func(t *testing.T) {
		if err := db.Backup(ctx, db.Path()); !errors.Is(err, match.ErrInvalid) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("NotOverAnotherFile", func(t *testing.T) {
		other := filepath.Join(dir, "notes.txt")
		writeFile(t, other, "precious")
		if err := db.Backup(ctx, other); !errors.Is(err, ErrNotDatabase) {
			t.Fatalf("got %v", err)
		}
		if b, _ := os.ReadFile(other); string(b) != "precious" {
			t.Fatalf("the file now holds %q", b)
		}
	})
	t.Run("MissingFolder", func(t *testing.T) {
		if err := db.Backup(ctx, filepath.Join(dir, "no", "backup.db")); !errors.Is(err, ErrUnwritable) {
			t.Fatalf("got %v", err)
		}
	})
}
