package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"nimbot/engine"
	"nimbot/match"
	"nimbot/store"
)

func parseHeaps(s string) ([]int64, error) {
	heaps, err := engine.ParseHeaps(s)
	if err != nil {
		return nil, fmt.Errorf("-heaps: %w", err)
	}
	for _, h := range heaps {
		if h < 1 || h > 25 {
			return nil, fmt.Errorf("-heaps: %d is outside 1..25, where the board offers buttons and menus to click", h)
		}
	}
	return heaps, nil
}

// prefill stores n finished games, as nimbot would have stored them, through
// the store API: each is CreateGame and one Commit of the whole game (its
// moves, the result, the players' statistics). The store has no batch write,
// so this is 2n transactions; the store is opened with synchronous=NORMAL for
// it (the data is throw-away until the load starts) and closed, so the load
// opens it afresh with FULL.
func prefill(ctx context.Context, path string, n int, heaps []int64) (time.Duration, error) {
	start := time.Now()
	db, err := store.Open(ctx, store.Config{Path: path, Synchronous: "NORMAL"})
	if err != nil {
		return 0, err
	}
	defer db.Close()
	rules, err := engine.Rules{Variant: engine.Nim}.Normalize()
	if err != nil {
		return 0, err
	}
	pos, err := rules.Start(heaps)
	if err != nil {
		return 0, err
	}
	// A few dozen games played out at random, replayed over and over.
	rng := rand.New(rand.NewPCG(1, 2))
	type script struct {
		moves []engine.Move
		end   engine.Position
	}
	scripts := make([]script, 64)
	for i := range scripts {
		p := pos
		var ms []engine.Move
		for !rules.Over(p) {
			legal := rules.Legal(p)
			m := legal[rng.IntN(len(legal))]
			if p, err = rules.Apply(p, m); err != nil {
				return 0, err
			}
			ms = append(ms, m)
		}
		scripts[i] = script{moves: ms, end: p}
	}
	guilds := []string{snowflake(), snowflake(), snowflake(), snowflake()}
	users := make([]string, 2000)
	for i := range users {
		users[i] = snowflake()
	}
	run := snowflake()
	for i := 0; i < n; i++ {
		if i%1000 == 0 && ctx.Err() != nil {
			return 0, ctx.Err()
		}
		sc := scripts[i%len(scripts)]
		human := users[rng.IntN(len(users))]
		players := [2]string{human, match.BotID}
		difficulty := engine.Medium
		if i%4 == 3 {
			// A game between people.
			players[1] = users[rng.IntN(len(users))]
			difficulty = ""
		}
		if i%2 == 1 {
			players[0], players[1] = players[1], players[0]
		}
		g := &match.Game{
			GuildID: guilds[i%len(guilds)], ChannelID: run + "-" + strconv.Itoa(i%5000),
			Rules: rules, Start: pos, Players: players, Status: match.Active,
			Difficulty: difficulty, Hints: true, TurnTimeout: time.Hour, Deadline: time.Now().Add(time.Hour),
			CreatedBy: human,
		}
		if err := db.CreateGame(ctx, g); err != nil {
			return 0, err
		}
		last := players[(len(sc.moves)-1)%2]
		winner := last
		if !rules.LastMoverWins() {
			winner = players[len(sc.moves)%2]
		}
		if _, err := db.Commit(ctx, match.Change{GameID: g.ID, Ply: 0, From: match.Active,
			Moves: sc.moves, Position: sc.end, Status: match.Won, Winner: winner}); err != nil {
			return 0, err
		}
	}
	return time.Since(start), nil
}

// cacheFrom is the smallest pre-fill worth keeping for the next run.
const cacheFrom = 10000

// prefillCached is prefill for a database that does not exist yet, from a
// copy kept in the user's cache folder when there is one: 100,000 games
// take minutes to store through the API, and the next run needs the same
// file. The copy is named by schema version, count and heaps, so a schema
// change makes a new one. An existing database is filled in place.
func prefillCached(ctx context.Context, path string, n int, heaps []int64) (took time.Duration, cached bool, err error) {
	start := time.Now()
	_, statErr := os.Stat(path)
	dir, cacheErr := os.UserCacheDir()
	if n < cacheFrom || cacheErr != nil || !errors.Is(statErr, fs.ErrNotExist) {
		took, err := prefill(ctx, path, n, heaps)
		return took, false, err
	}
	cache := filepath.Join(dir, "nimbot-load", fmt.Sprintf("prefill-v%d-%d-%s.db", store.LatestSchemaVersion(), n, heapsName(heaps)))
	if err := copyFile(cache, path); err == nil {
		return time.Since(start), true, nil
	}
	if _, err := prefill(ctx, path, n, heaps); err != nil {
		return 0, false, err
	}
	// prefill closed the store, which checkpointed the WAL into the file.
	if err := os.MkdirAll(filepath.Dir(cache), 0o755); err == nil {
		if err := copyFile(path, cache+".tmp"); err == nil {
			os.Rename(cache+".tmp", cache)
		}
	}
	return time.Since(start), false, nil
}

func heapsName(heaps []int64) string {
	s := make([]string, len(heaps))
	for i, h := range heaps {
		s[i] = strconv.FormatInt(h, 10)
	}
	return strings.Join(s, "-")
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		os.Remove(to)
		return err
	}
	return out.Close()
}

// removeDB removes a database file and its WAL side files.
func removeDB(path string) {
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(path + suffix)
	}
}
