package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands"
	"nimbot/engine"
	"nimbot/internal/cpuclock"
	"nimbot/match"
	"nimbot/store"
)

// floor is the CPU per request of the trusted parts a move needs, each
// measured alone, one call after another, in this process (getrusage: every
// thread counted, the store's writer and the kernel's work for its system
// calls included): crypto/ed25519 verifying a signed click, encoding/json
// decoding it into a discordgo.Interaction, one durable move committed
// through the store (database/sql, synchronous=FULL), and a board rendered
// and encoded. Their sum is what no server of nimbot's design can go below
// per move; the server's own CPU per request is reported as a multiple of
// it.
type floor struct {
	verify, decode, commit, render time.Duration
}

// sum is the floor per request.
func (f floor) sum() time.Duration { return f.verify + f.decode + f.commit + f.render }

// measureFloor measures each part of the floor for d, on click (a signed
// click the load sent) and in fresh databases in dir.
func measureFloor(ctx context.Context, dir string, click []byte, d time.Duration) (f floor, err error) {
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))
	pub := priv.Public().(ed25519.PublicKey)
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	sig := ed25519.Sign(priv, append([]byte(ts), click...))
	var msg []byte
	if f.verify, err = cpuPer(d, func() error {
		// What the server verifies: the timestamp and the body as one
		// message.
		msg = append(append(msg[:0], ts...), click...)
		if !ed25519.Verify(pub, msg, sig) {
			return errors.New("the signature does not verify")
		}
		return nil
	}); err != nil {
		return f, err
	}
	if f.decode, err = cpuPer(d, func() error {
		var i discordgo.Interaction
		return json.Unmarshal(click, &i)
	}); err != nil {
		return f, fmt.Errorf("decoding a click: %w", err)
	}
	if f.commit, err = measureCommit(ctx, dir, d); err != nil {
		return f, fmt.Errorf("committing moves: %w", err)
	}
	if f.render, err = measureRender(ctx, dir, d); err != nil {
		return f, fmt.Errorf("rendering a board: %w", err)
	}
	return f, nil
}

// cpuPer calls op until d has passed (once at least) and returns the CPU
// time per call.
func cpuPer(d time.Duration, op func() error) (time.Duration, error) {
	start, n := cpuclock.Process(), 0
	for deadline := time.Now().Add(d); n == 0 || time.Now().Before(deadline); n++ {
		if err := op(); err != nil {
			return 0, err
		}
	}
	return (cpuclock.Process() - start) / time.Duration(n), nil
}

// measureCommit is the CPU of one durable move through the store's write
// path: store.Commit (one BEGIN IMMEDIATE transaction that checks the
// interaction id, reads the game, inserts the move, updates the game and
// saves the response), synchronous=FULL, in a fresh database in dir.
func measureCommit(ctx context.Context, dir string, d time.Duration) (time.Duration, error) {
	path := filepath.Join(dir, fmt.Sprintf("floor-commit-%d.db", time.Now().UnixNano()))
	defer removeDB(path)
	db, err := store.Open(ctx, store.Config{Path: path, Synchronous: "FULL"})
	if err != nil {
		return 0, err
	}
	defer db.Close()
	// One heap big enough never to run out: the store does not judge moves.
	const size = 1 << 40
	g := &match.Game{ChannelID: "floor", GuildID: "floor", Rules: engine.Rules{Variant: engine.Nim},
		Start: engine.Position{Heaps: []int64{size}}, Players: [2]string{"1", match.BotID},
		Status: match.Active, Difficulty: engine.Medium, Hints: true, CreatedBy: "1"}
	if err := db.CreateGame(ctx, g); err != nil {
		return 0, err
	}
	// A response the size of a real board answer.
	resp := bytes.Repeat([]byte("x"), 2500)
	move := engine.Move{Kind: engine.Take, Heap: 0, Take: 1}
	ply := 0
	return cpuPer(d, func() error {
		_, err := db.Commit(ctx, match.Change{
			GameID: g.ID, Ply: ply, From: match.Active, Moves: []engine.Move{move},
			Position: engine.Position{Heaps: []int64{size - int64(ply) - 1}}, Status: match.Active,
			Deadline: time.Now().Add(time.Hour), InteractionID: "floor-" + strconv.Itoa(ply), Response: resp,
		})
		ply++
		return err
	})
}

// measureRender is the CPU of one board rendered and encoded by
// commands.Service: a click on a heap picker, which commits nothing and
// answers with the board redrawn (the game's one read included), encoded
// with encoding/json as the HTTP endpoint writes it. The heaps are large
// enough that the board offers heap pickers.
func measureRender(ctx context.Context, dir string, d time.Duration) (time.Duration, error) {
	path := filepath.Join(dir, fmt.Sprintf("floor-render-%d.db", time.Now().UnixNano()))
	defer removeDB(path)
	db, err := store.Open(ctx, store.Config{Path: path})
	if err != nil {
		return 0, err
	}
	defer db.Close()
	svc := commands.New(commands.Config{DB: db, Log: slog.New(slog.DiscardHandler)})
	p := &player{channel: snowflake(), guild: snowflake()}
	p.users[0] = snowflake()
	handle := func(body []byte) (*discordgo.InteractionResponse, []byte, error) {
		var i discordgo.Interaction
		if err := json.Unmarshal(body, &i); err != nil {
			return nil, nil, err
		}
		resp, enc, _ := svc.Handle(ctx, &i)
		if enc == nil {
			var err error
			if enc, err = json.Marshal(resp); err != nil {
				return nil, nil, err
			}
		}
		return resp, enc, nil
	}
	start := p.commandJSON(p.users[0], "start", []option{{name: "heaps", typ: 3, value: "30 40 50"}, {name: "first", typ: 3, value: "me"}}, "", snowflake(), "floor")
	_, enc, err := handle(start)
	if err != nil {
		return 0, err
	}
	var a answer
	if err := json.Unmarshal(enc, &a); err != nil || a.Data == nil {
		return 0, fmt.Errorf("/nim start answered %.200s", enc)
	}
	comps, err := a.Data.components()
	if err != nil {
		return 0, err
	}
	b := &board{msgID: snowflake(), content: a.Data.Content, components: a.Data.Components, embeds: a.Data.Embeds, game: -1}
	if err := b.addControls(comps); err != nil {
		return 0, err
	}
	var click []byte
	if c := b.find(is[commands.HeapControl]); c != nil {
		click = p.clickJSON(p.users[0], c.id, "", snowflake(), "floor", b)
	} else if c := b.find(is[commands.HeapMenuControl]); c != nil && len(c.options) > 0 {
		click = p.clickJSON(p.users[0], c.id, c.options[0], snowflake(), "floor", b)
	} else {
		return 0, fmt.Errorf("the board of /nim start offers no heap picker: %.300s", enc)
	}
	var i discordgo.Interaction
	if err := json.Unmarshal(click, &i); err != nil {
		return 0, err
	}
	return cpuPer(d, func() error {
		resp, enc, _ := svc.Handle(ctx, &i)
		if resp.Type != discordgo.InteractionResponseUpdateMessage {
			return fmt.Errorf("a heap click answered %+v", resp.Data)
		}
		if enc == nil {
			_, err := json.Marshal(resp)
			return err
		}
		return nil
	})
}
