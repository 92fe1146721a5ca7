package commands

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/engine"
	"nimbot/match"
)

// TestLimitViolationsCatchesEachLimit makes sure the checker the other tests
// rely on can fail: each response breaks one limit by one.
func TestLimitViolationsCatchesEachLimit(t *testing.T) {
	opts := func(n int) []discordgo.SelectMenuOption {
		var o []discordgo.SelectMenuOption
		for k := range n {
			o = append(o, discordgo.SelectMenuOption{Label: fmt.Sprint(k), Value: fmt.Sprint(k)})
		}
		return o
	}
	row := func(c ...discordgo.MessageComponent) discordgo.MessageComponent {
		return discordgo.ActionsRow{Components: c}
	}
	btn := func(id string) discordgo.MessageComponent { return discordgo.Button{Label: "x", CustomID: id} }
	msg := func(d discordgo.InteractionResponseData) *discordgo.InteractionResponse {
		return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &d}
	}
	long := func(n int) string { return strings.Repeat("x", n) }
	embed := func(e discordgo.MessageEmbed) []*discordgo.MessageEmbed { return []*discordgo.MessageEmbed{&e} }
	cases := map[string]*discordgo.InteractionResponse{
		"content":        msg(discordgo.InteractionResponseData{Content: long(2001)}),
		"content emoji":  msg(discordgo.InteractionResponseData{Content: strings.Repeat("💡", 1001)}),
		"title":          msg(discordgo.InteractionResponseData{Embeds: embed(discordgo.MessageEmbed{Title: long(257)})}),
		"description":    msg(discordgo.InteractionResponseData{Embeds: embed(discordgo.MessageEmbed{Description: long(4097)})}),
		"fields":         msg(discordgo.InteractionResponseData{Embeds: embed(discordgo.MessageEmbed{Fields: make([]*discordgo.MessageEmbedField, 26)})}),
		"field value":    msg(discordgo.InteractionResponseData{Embeds: embed(discordgo.MessageEmbed{Fields: []*discordgo.MessageEmbedField{{Name: "a", Value: long(1025)}}})}),
		"footer":         msg(discordgo.InteractionResponseData{Embeds: embed(discordgo.MessageEmbed{Footer: &discordgo.MessageEmbedFooter{Text: long(2049)}})}),
		"author":         msg(discordgo.InteractionResponseData{Embeds: embed(discordgo.MessageEmbed{Author: &discordgo.MessageEmbedAuthor{Name: long(257)}})}),
		"embeds total":   msg(discordgo.InteractionResponseData{Embeds: append(embed(discordgo.MessageEmbed{Description: long(4000)}), embed(discordgo.MessageEmbed{Description: long(2001)})...)}),
		"rows":           msg(discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(btn("a")), row(btn("b")), row(btn("c")), row(btn("d")), row(btn("e")), row(btn("f"))}}),
		"buttons in row": msg(discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(btn("a"), btn("b"), btn("c"), btn("d"), btn("e"), btn("f"))}}),
		"custom_id":      msg(discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(btn(long(101)))}}),
		"same custom_id": msg(discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(btn("a"), btn("a"))}}),
		"button label":   msg(discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(discordgo.Button{Label: long(81), CustomID: "a"})}}),
		"options":        msg(discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(discordgo.SelectMenu{CustomID: "a", Options: opts(26)})}}),
		"placeholder":    msg(discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(discordgo.SelectMenu{CustomID: "a", Placeholder: long(151), Options: opts(1)})}}),
		"option label":   msg(discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{row(discordgo.SelectMenu{CustomID: "a", Options: []discordgo.SelectMenuOption{{Label: long(101), Value: "v"}}})}}),
		"choices":        msg(discordgo.InteractionResponseData{Choices: make([]*discordgo.ApplicationCommandOptionChoice, 26)}),
		"modal inputs": {Type: discordgo.InteractionResponseModal, Data: &discordgo.InteractionResponseData{CustomID: "m", Title: "t", Components: func() []discordgo.MessageComponent {
			var rows []discordgo.MessageComponent
			for k := range 6 {
				rows = append(rows, row(discordgo.TextInput{CustomID: fmt.Sprint(k), Label: "l", MaxLength: 10}))
			}
			return rows
		}()}},
		"modal title": modal("m", long(46)+"", "l", "p", 10),
	}
	// modal() truncates its title itself; break it after the fact.
	cases["modal title"].Data.Title = long(46)
	for name, resp := range cases {
		if len(limitViolations(resp)) == 0 {
			t.Errorf("%s: the checker accepted a response Discord refuses", name)
		}
	}
	ok := modal("m", "title", "label", "placeholder", 100)
	if v := limitViolations(ok); len(v) > 0 {
		t.Errorf("a valid modal was refused: %v", v)
	}
}

// boardCase is a game to draw.
type boardCase struct {
	name  string
	rules engine.Rules
	start engine.Position
	moves []engine.Move // played from start
}

// ruleSets are every variant in both plays, with each setting at the top of
// the range /nim start offers (engine.Describe), one setting at a time.
func ruleSets(t *testing.T) []engine.Rules {
	var out []engine.Rules
	for _, v := range engine.Variants() {
		d, ok := engine.Describe(v)
		if !ok {
			t.Fatalf("no description of %s", v)
		}
		for _, misere := range []bool{false, true} {
			out = append(out, engine.Rules{Variant: v, Misere: misere})
			for _, st := range d.Settings {
				r := engine.Rules{Variant: v, Misere: misere}
				top := int(st.Offer[1])
				switch {
				case st.Kind == engine.IntSet:
					for k := range st.MaxLen {
						r.Set = append(r.Set, top-st.MaxLen+1+k)
					}
				case st.Name == "k":
					r.K = top
				case st.Name == "target":
					r.Target = top
				default:
					t.Fatalf("%s: a setting %q this test does not know", v, st.Name)
				}
				out = append(out, r)
			}
		}
	}
	return out
}

// largestStart is the largest position /nim start accepts for r: at most
// maxBoardHeaps heaps of at most maxBoardHeap, within the engine's Limits.
func largestStart(t *testing.T, r engine.Rules) engine.Position {
	t.Helper()
	lim := r.Limits()
	n := min(maxBoardHeaps, lim.MaxHeaps)
	switch r.Variant {
	case engine.Wythoff:
		n = 2
	case engine.TwentyOne, engine.Fibonacci:
		n = 1
	}
	size := int64(maxBoardHeap)
	if lim.MaxHeap > 0 {
		size = min(size, lim.MaxHeap)
	}
	if lim.MaxTotal > 0 {
		size = min(size, lim.MaxTotal/int64(n))
	}
	heaps := make([]int64, n)
	for i := range heaps {
		heaps[i] = size
	}
	if r.Variant == engine.TwentyOne {
		heaps = nil
	}
	p, err := r.Start(heaps)
	if err != nil {
		t.Fatalf("%s: start %v: %v", r.Name(), heaps, err)
	}
	return p
}

// growMove is a move that multiplies the heaps where the variant can
// (Lasker splits 1 off the largest heap, Kayles knocks the second pin of
// the longest row), else a small take from the first heap that can move.
func growMove(t *testing.T, r engine.Rules, p engine.Position) (engine.Move, bool) {
	big := 0
	for i, h := range p.Heaps {
		if h > p.Heaps[big] {
			big = i
		}
	}
	h := p.Heaps[big]
	var m engine.Move
	switch {
	case r.Variant == engine.Lasker && h >= 2:
		m = engine.Move{Kind: engine.Split, Heap: big, Parts: [2]int64{1, h - 1}}
	case r.Variant == engine.Kayles && h >= 3:
		m = engine.Move{Kind: engine.Knock, Heap: big, Take: 1, Parts: [2]int64{1, h - 2}}
	default:
		for i := range p.Heaps {
			if ms, _ := heapMoves(r, p, i); len(ms) > 0 {
				if _, err := r.Apply(p, ms[0]); err == nil {
					return ms[0], true
				}
			}
		}
		legal := r.Legal(p)
		if len(legal) == 0 {
			return engine.Move{}, false
		}
		return legal[0], true
	}
	return m, true
}

// play plays n grow moves from c.start.
func (c boardCase) play(t *testing.T, n int) boardCase {
	t.Helper()
	p := c.start
	for k := 0; k < n && !c.rules.Over(p); k++ {
		m, ok := growMove(t, c.rules, p)
		if !ok {
			break
		}
		q, err := c.rules.Apply(p, m)
		if err != nil {
			t.Fatalf("%s: %v in %v: %v", c.name, m, p.Heaps, err)
		}
		c.moves = append(c.moves, m)
		p = q
	}
	return c
}

// boardCases are, for every variant, the largest start, a long game from it
// and, for the variants whose heaps multiply, positions with more heaps up
// to the engine's limit.
func boardCases(t *testing.T) []boardCase {
	var out []boardCase
	for _, r := range ruleSets(t) {
		start := largestStart(t, r)
		base := boardCase{name: r.Name(), rules: r, start: start}
		out = append(out, base, base.play(t, 1))
		switch r.Variant {
		case engine.Lasker, engine.Kayles:
			// Grown by play: every heap count up to the first pages of the
			// heap menu, then a long game.
			for _, n := range []int{3, 13, 14, 20, 40, 60, 200} {
				out = append(out, base.play(t, n))
			}
			if !r.Misere {
				out = append(out, base.play(t, 2000))
			}
			// Up to the engine's largest positions, with no more stones than a
			// start holds (12 heaps of 9999), drawn as they are and after a
			// few moves.
			lim := r.Limits()
			for _, n := range []int{24, 25, 26, 47, 48, 49, 1000, lim.MaxHeaps - 7, lim.MaxHeaps} {
				if n > lim.MaxHeaps {
					continue
				}
				heaps := make([]int64, n)
				for i := range heaps {
					switch {
					case i%1000 == 3:
						heaps[i] = maxBoardHeap
					case i%7 == 1 && r.Variant == engine.Kayles:
						heaps[i] = 0 // knocks leave empty rows behind
					case i%7 == 2:
						heaps[i] = int64(i % 50)
					default:
						heaps[i] = int64(1 + i%3)
					}
					if lim.MaxTotal > 0 {
						heaps[i] = min(heaps[i], 1)
					}
				}
				p, err := r.Start(heaps)
				if err != nil {
					t.Fatalf("%s with %d heaps: %v", r.Name(), n, err)
				}
				c := boardCase{name: fmt.Sprintf("%s %d heaps", r.Name(), n), rules: r, start: p}
				if n == lim.MaxHeaps {
					// A split or knock would pass the engine's limit.
					out = append(out, c)
					continue
				}
				out = append(out, c.play(t, 7))
			}
		default:
			out = append(out, base.play(t, 500))
		}
	}
	return out
}

// boardGames are c's game in every status a board shows.
func boardGames(t *testing.T, c boardCase) []board {
	p := c.start
	var moves []match.Move
	players := [2]string{"123456789012345678", "987654321098765432"}
	for k, m := range c.moves {
		moves = append(moves, match.Move{GameID: 1, Ply: k, Player: players[k%2], Move: m, Hinted: k%3 == 0})
		q, err := c.rules.Apply(p, m)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		p = q
	}
	deadline := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	g := match.Game{ID: 1<<62 + 12345, Rules: c.rules, Start: c.start, Position: p, Players: players, Ply: len(c.moves),
		Status: match.Active, Deadline: deadline, CreatedBy: players[0], Hints: true}
	var out []board
	add := func(g match.Game) { out = append(out, board{g: &g, moves: moves, selected: -1}) }
	if c.rules.Over(p) {
		g.Status, g.Winner, g.Deadline = match.Won, players[1], time.Time{}
		add(g)
		return out
	}
	add(g)
	vsBot := g
	vsBot.Players[1] = match.BotID
	add(vsBot)
	if len(moves) == 0 {
		pending := g
		pending.Status = match.Pending
		pending.Hints = false
		add(pending)
	}
	for _, st := range []match.Status{match.Resigned, match.Ended} {
		done := g
		done.Status, done.Winner = st, ""
		if st == match.Resigned {
			done.Winner = players[0]
		}
		add(done)
	}
	return out
}

var (
	logLine      = regexp.MustCompile("^`[0-9]+\\.` ")
	earlierMoves = regexp.MustCompile(`^… [0-9][0-9,]* earlier moves?$`)
)

// checkBoardText checks that a board's description is whole: every code
// block closed, the whose-turn (or result) line present, and the move log
// made of whole lines.
func checkBoardText(t *testing.T, name string, b board, desc string) {
	t.Helper()
	if strings.Count(desc, "```")%2 != 0 {
		t.Errorf("%s: a code block is left open:\n%s", name, desc)
	}
	g := b.g
	switch {
	case g.Status == match.Active:
		if !strings.Contains(desc, "to move.**") {
			t.Errorf("%s: no whose-turn line:\n%s", name, desc)
		}
	case g.Status.Finished():
		if !strings.Contains(desc, result(b.p(), g)) {
			t.Errorf("%s: no result line", name)
		}
	}
	if g.Rules.Variant != engine.TwentyOne && !strings.Contains(desc, engine.HeapLabel(0)) {
		t.Errorf("%s: heap A is not shown", name)
	}
	_, log, ok := strings.Cut(desc, "**Last moves**\n")
	if len(b.moves) == 0 {
		if ok {
			t.Errorf("%s: a move log without moves", name)
		}
		return
	}
	if !ok {
		t.Fatalf("%s: no move log:\n%s", name, desc)
	}
	lines := strings.Split(log, "\n")
	if len(b.moves) > logLines {
		if !earlierMoves.MatchString(lines[0]) {
			t.Errorf("%s: the log does not say how many moves it leaves out: %q", name, lines[0])
		}
		lines = lines[1:]
	}
	if len(lines) != min(len(b.moves), logLines) {
		t.Errorf("%s: %d log lines for %d moves", name, len(lines), len(b.moves))
	}
	for k, l := range lines {
		if !logLine.MatchString(l) {
			t.Errorf("%s: log line %q is not whole", name, l)
		}
		want := fmt.Sprintf("`%d.`", len(b.moves)-len(lines)+k+1)
		if !strings.HasPrefix(l, want) {
			t.Errorf("%s: log line %q, want it to start %s", name, l, want)
		}
	}
}

// TestBoardsStayWithinDiscordLimits draws every variant's board from its
// largest accepted start, through long games and, where heaps multiply, up to
// the engine's largest position, with every heap picked and every page of
// the heap menu turned, and checks each against Discord's limits and that the
// board is whole.
func TestBoardsStayWithinDiscordLimits(t *testing.T) {
	for _, c := range boardCases(t) {
		for _, b := range boardGames(t, c) {
			name := fmt.Sprintf("%s after %d moves (%d heaps, %s)", c.name, len(c.moves), len(b.g.Position.Heaps), b.g.Status)
			states := []board{b}
			if b.g.Status == match.Active && !b.g.VsBot() {
				n := len(b.g.Position.Heaps)
				var picks []int
				if n <= 60 {
					for i := range n {
						picks = append(picks, i)
					}
				} else {
					picks = []int{0, 1, 2, 22, 23, 24, 25, 47, n / 2, n - 2, n - 1}
				}
				for _, i := range picks {
					s := b
					s.selected = i
					states = append(states, s)
				}
				_, pages := heapPages(b.g.Position)
				for _, pg := range []int{0, 1, 2, pages / 2, pages - 2, pages - 1} {
					if pg >= 0 && pg < pages {
						s := b
						s.page = pg
						states = append(states, s)
					}
				}
			}
			for k, s := range states {
				sname := fmt.Sprintf("%s, heap %d, page %d", name, s.selected, s.page)
				rt := discordgo.InteractionResponseUpdateMessage
				if k == 0 {
					rt = discordgo.InteractionResponseChannelMessageWithSource
				}
				resp := s.response(rt)
				for _, v := range limitViolations(sent(t, resp)) {
					t.Errorf("%s: %s", sname, v)
				}
				checkBoardText(t, sname, s, resp.Data.Embeds[0].Description)
			}
			if t.Failed() {
				return
			}
		}
	}
}

// selectOf returns the select menu with the given custom_id in resp.
func selectOf(resp *discordgo.InteractionResponse, customID string) *discordgo.SelectMenu {
	if resp.Data == nil {
		return nil
	}
	for _, c := range resp.Data.Components {
		if row := rowOf(c); row != nil {
			for _, cc := range row.Components {
				if s, ok := deref(cc).(discordgo.SelectMenu); ok && s.CustomID == customID {
					return &s
				}
			}
		}
	}
	return nil
}

// TestHeapsMultiplyThroughTheService plays Lasker's splits from 12 heaps of
// 833 (the largest such start /nim start takes: a game's splits may not grow
// it past the engine's 10,000 heaps) and Kayles' knocks from 6 rows of 20 between two people until the
// board has well over 25 heaps (the probe saw a heap menu of 26+ options,
// which Discord refuses, and later boards that lost their closing fence and
// whose-turn line), checking every answer (the harness checks each against
// Discord's limits), then turns the pages of the heap menu.
func TestHeapsMultiplyThroughTheService(t *testing.T) {
	for _, c := range []struct {
		variant, heaps string
		moves          int
	}{
		{"lasker", strings.TrimSpace(strings.Repeat("833 ", 12)), 150},
		{"kayles", "20 20 20 20 20 20", 60},
	} {
		t.Run(c.variant, func(t *testing.T) {
			h := newHarness(t, 7)
			h.command(alice, "start", "variant", c.variant, "heaps", c.heaps, "opponent", user(bob), "first", "me")
			g := h.game()
			h.click(bob, AcceptControl{Game: g.ID}.CustomID())
			players := []string{alice, bob}
			for k := 0; k < c.moves; k++ {
				g = h.game()
				big := largestHeap(g.Position.Heaps)
				n := g.Position.Heaps[big]
				if n < 3 {
					break
				}
				// Halves keep the rows long (24 stones and more), as a long
				// Lasker game would.
				notation := fmt.Sprintf("%s=%d+%d", engine.HeapLabel(big), n/2, n-n/2)
				if c.variant == "kayles" {
					notation = fmt.Sprintf("%s2", engine.HeapLabel(big))
				}
				resp := h.command(players[k%2], "move", "notation", notation)
				if isEphemeral(resp) {
					t.Fatalf("move %d %s: %s", k, notation, text(resp))
				}
				desc := resp.Data.Embeds[0].Description
				if strings.Count(desc, "```")%2 != 0 || !strings.Contains(desc, "to move.**") {
					t.Fatalf("move %d: the board is not whole:\n%s", k, desc)
				}
			}
			g = h.game()
			if _, pages := heapPages(g.Position); pages < 2 {
				t.Fatalf("only %d heaps after the splits", len(g.Position.Heaps))
			}
			who := players[g.Ply%2]
			sel := HeapMenuControl{Game: g.ID, Ply: g.Ply}.CustomID()
			resp := h.command(who, "status")
			menu := selectOf(resp, sel)
			if menu == nil || menu.Options[len(menu.Options)-1].Value != "page:1" {
				t.Fatalf("the heap menu does not page: %+v", menu)
			}
			resp = h.choose(who, sel, "page:1")
			menu = selectOf(resp, sel)
			if menu == nil || menu.Options[0].Value != "page:0" {
				t.Fatalf("page 2 of the heap menu: %+v", menu)
			}
			heap := menu.Options[1].Value
			resp = h.choose(who, sel, heap)
			menu = selectOf(resp, sel)
			picked := ""
			for _, o := range menu.Options {
				if o.Default {
					picked = o.Value
				}
			}
			if picked != heap {
				t.Fatalf("heap %s picked from page 2, but the menu shows %q picked", heap, picked)
			}
			for _, bad := range []string{"page:99999", "page:-1", "page:x", "page:", "99999"} {
				wantUserError(t, h.choose(who, sel, bad), "no such")
			}
			if h.game().Ply != g.Ply {
				t.Fatalf("turning pages changed the game")
			}
			wantUserError(t, h.choose(players[(g.Ply+1)%2], sel, "page:1"), "turn")
		})
	}
}

// selectOptions returns the values of the select menu customID on resp's
// board, and whether the board has that menu.
func selectOptions(resp *discordgo.InteractionResponse, customID string) ([]string, bool) {
	if resp == nil || resp.Data == nil {
		return nil, false
	}
	for _, c := range resp.Data.Components {
		row := rowOf(c)
		if row == nil {
			continue
		}
		for _, x := range row.Components {
			if m, ok := deref(x).(discordgo.SelectMenu); ok && m.CustomID == customID {
				var vals []string
				for _, o := range m.Options {
					vals = append(vals, o.Value)
				}
				return vals, true
			}
		}
	}
	return nil, false
}

// TestOneClickMenu: when a board's legal moves fit one select menu (Nim
// 3-4-5 has 12), the board offers them all there, and one choice plays the
// move and nimbot's reply in one request. The two-step heap picker stays on
// the board beside it, and where the moves do not fit (a heap of 30) only the
// two-step controls are offered.
func TestOneClickMenu(t *testing.T) {
	h := newHarness(t, 1)
	resp := h.command(alice, "start", "first", "me", "heaps", "3 4 5")
	g := h.game()
	menu := MoveMenuControl{Game: g.ID, Ply: g.Ply, Slot: oneClickSlot}.CustomID()
	vals, ok := selectOptions(resp, menu)
	if !ok {
		t.Fatalf("3-4-5 board has no one-click menu %s: %v", menu, customIDs(resp))
	}
	want := []string{}
	for i, n := range g.Position.Heaps {
		for k := int64(1); k <= n; k++ {
			want = append(want, g.Rules.FormatMove(g.Position, engine.Move{Kind: engine.Take, Heap: i, Take: k}))
		}
	}
	if strings.Join(vals, " ") != strings.Join(want, " ") {
		t.Errorf("one-click menu offers %v, want every move %v", vals, want)
	}
	if !hasID(resp, HeapControl{Game: g.ID, Ply: g.Ply, Heap: 0}.CustomID()) {
		t.Errorf("the heap picker left the board: %v", customIDs(resp))
	}
	checkResponse(t, resp)

	played := h.choose(alice, menu, want[len(want)-1]) // C5
	if played.Type != discordgo.InteractionResponseUpdateMessage || isEphemeral(played) {
		t.Fatalf("one-click move: %s", text(played))
	}
	after := h.gameByID(g.ID)
	if after.Ply != g.Ply+2 {
		t.Fatalf("after one click the game is at ply %d, want %d (the move and nimbot's reply)", after.Ply, g.Ply+2)
	}
	if ms := h.moves(g.ID); len(ms) < 1 || ms[0].Player != alice || ms[0].Move.Heap != 2 || ms[0].Move.Take != 5 {
		t.Fatalf("moves %+v, want alice's C5 first", ms)
	}
	// A stale choice from the old board is refused like any stale control.
	wantUserError(t, h.choose(alice, menu, want[0]), "out of date")

	// Too many moves for one menu: the two-step controls alone.
	h2 := newHarness(t, 2)
	resp = h2.command(alice, "start", "first", "me", "heaps", "30 7")
	g2 := h2.game()
	if _, ok := selectOptions(resp, MoveMenuControl{Game: g2.ID, Ply: g2.Ply, Slot: oneClickSlot}.CustomID()); ok {
		t.Errorf("30-7 has 37 moves, more than a menu holds, yet the board offers a one-click menu")
	}
	if !hasID(resp, HeapControl{Game: g2.ID, Ply: g2.Ply, Heap: 0}.CustomID()) {
		t.Errorf("30-7 board lacks the heap picker: %v", customIDs(resp))
	}
}
