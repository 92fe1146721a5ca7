package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"time"

	"nimbot/engine"
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
		players := [2]string{human, store.BotID}
		difficulty := engine.Medium
		if i%4 == 3 {
			// A game between people.
			players[1] = users[rng.IntN(len(users))]
			difficulty = ""
		}
		if i%2 == 1 {
			players[0], players[1] = players[1], players[0]
		}
		g := &store.Game{
			GuildID: guilds[i%len(guilds)], ChannelID: run + "-" + strconv.Itoa(i%5000),
			Rules: rules, Start: pos, Players: players, Status: store.Active,
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
		if _, err := db.Commit(ctx, store.Change{GameID: g.ID, Ply: 0, From: store.Active,
			Moves: sc.moves, Position: sc.end, Status: store.Won, Winner: winner}); err != nil {
			return 0, err
		}
	}
	return time.Since(start), nil
}

// removeDB removes a database file and its WAL side files.
func removeDB(path string) {
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(path + suffix)
	}
}
