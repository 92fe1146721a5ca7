package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/engine"
	"nimbot/match"
	"nimbot/store"
)

// measureVerify returns how many signed requests discordgo.VerifyInteraction
// checks per second, on one goroutine and on one per CPU. The request is a
// real one the load sent, signed as Discord signs.
func measureVerify(sample *sentRequest, d time.Duration) (one, all float64) {
	return verifyRate(sample, 1, d), verifyRate(sample, runtime.GOMAXPROCS(0), d)
}

func verifyRate(sample *sentRequest, workers int, d time.Duration) float64 {
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	sig := hex.EncodeToString(ed25519.Sign(signer, append([]byte(ts), sample.body...)))
	key := signer.Public().(ed25519.PublicKey)
	var n atomic.Int64
	var bad atomic.Bool
	var wg sync.WaitGroup
	deadline := time.Now().Add(d)
	start := time.Now()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k := int64(0)
			for time.Now().Before(deadline) {
				for i := 0; i < 16; i++ {
					r, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1/interactions", bytes.NewReader(sample.body))
					r.Header.Set("X-Signature-Ed25519", sig)
					r.Header.Set("X-Signature-Timestamp", ts)
					if !discordgo.VerifyInteraction(r, key) {
						bad.Store(true)
					}
					k++
				}
			}
			n.Add(k)
		}()
	}
	wg.Wait()
	if bad.Load() {
		return 0
	}
	return float64(n.Load()) / time.Since(start).Seconds()
}

// signer signs the verification samples. Any key measures the same; using
// our own keeps measureVerify independent of which key the load used.
var signer = func() ed25519.PrivateKey {
	return ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))
}()

// measureCommits returns durable move transactions per second through the
// store's own write path: store.Commit (one BEGIN IMMEDIATE transaction that
// checks the interaction id, reads the game, inserts the move, updates the
// game and saves the response), synchronous=FULL, on the store's one writer
// connection, in a fresh database in dir.
func measureCommits(ctx context.Context, dir string, d time.Duration) (float64, error) {
	path := filepath.Join(dir, fmt.Sprintf("limits-%d.db", time.Now().UnixNano()))
	defer removeDB(path)
	db, err := store.Open(ctx, store.Config{Path: path, Synchronous: "FULL"})
	if err != nil {
		return 0, err
	}
	defer db.Close()
	// One heap big enough never to run out: the store does not judge moves.
	const size = 1 << 40
	g := &match.Game{ChannelID: "limits", GuildID: "limits", Rules: engine.Rules{Variant: engine.Nim},
		Start: engine.Position{Heaps: []int64{size}}, Players: [2]string{"1", match.BotID},
		Status: match.Active, Difficulty: engine.Medium, Hints: true, CreatedBy: "1"}
	if err := db.CreateGame(ctx, g); err != nil {
		return 0, err
	}
	// A response the size of a real board answer.
	resp := bytes.Repeat([]byte("x"), 2500)
	move := engine.Move{Kind: engine.Take, Heap: 0, Take: 1}
	start := time.Now()
	deadline := start.Add(d)
	ply := 0
	for time.Now().Before(deadline) {
		_, err := db.Commit(ctx, match.Change{
			GameID: g.ID, Ply: ply, From: match.Active, Moves: []engine.Move{move},
			Position: engine.Position{Heaps: []int64{size - int64(ply) - 1}}, Status: match.Active,
			Deadline: time.Now().Add(time.Hour), InteractionID: "limits-" + strconv.Itoa(ply), Response: resp,
		})
		if err != nil {
			return 0, err
		}
		ply++
	}
	if ply == 0 {
		return 0, errors.New("no commit finished")
	}
	return float64(ply) / time.Since(start).Seconds(), nil
}

// measureRawTx returns durable transactions per second of the smallest
// read-then-write: BEGIN IMMEDIATE, one SELECT, one UPDATE, COMMIT, on one
// connection with WAL and synchronous=FULL, as the store configures SQLite.
// Beside measureCommits it shows how much of a move's cost is the fsync
// every durable commit pays and how much is the store's own work.
func measureRawTx(ctx context.Context, dir string, d time.Duration) (float64, error) {
	path := filepath.Join(dir, fmt.Sprintf("raw-%d.db", time.Now().UnixNano()))
	defer removeDB(path)
	db, err := sql.Open("sqlite3", "file:"+path+"?_journal_mode=WAL&_synchronous=FULL&_txlock=immediate&_busy_timeout=5000")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, `CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER NOT NULL); INSERT INTO t VALUES (1, 0)`); err != nil {
		return 0, err
	}
	start := time.Now()
	deadline := start.Add(d)
	k := 0
	for time.Now().Before(deadline) {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return 0, err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT n FROM t WHERE id = 1`).Scan(&n); err != nil {
			tx.Rollback()
			return 0, err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE t SET n = ? WHERE id = 1`, n+1); err != nil {
			tx.Rollback()
			return 0, err
		}
		if err := tx.Commit(); err != nil {
			return 0, err
		}
		k++
	}
	return float64(k) / time.Since(start).Seconds(), nil
}
