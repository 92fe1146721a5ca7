package terminal

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands"
	"nimbot/engine"
	"nimbot/match"
	"nimbot/store"
)

// testClock is a clock that moves one second per reading, so timestamps
// differ and deadlines stay far away.
func testClock() func() time.Time {
	var mu sync.Mutex
	now := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Second)
		return now
	}
}

// testConfig is a session on the SQLite file at path, with the test clock.
type testConfig struct {
	path string
	Now  func() time.Time
}

func newTestConfig(path string) testConfig { return testConfig{path: path, Now: testClock()} }

// playOn is main's play for tests: it opens the store, builds the service
// on it with the test's clock and a seeded source, runs Play and closes the
// store.
func playOn(ctx context.Context, c testConfig, in io.Reader, out io.Writer) error {
	return playOnLang(ctx, c, "", in, out)
}

// playOnLang is playOn with the player's language (Config.Lang).
func playOnLang(ctx context.Context, c testConfig, lang string, in io.Reader, out io.Writer) error {
	db, err := store.Open(ctx, store.Config{Path: c.path, Now: c.Now})
	if err != nil {
		return err
	}
	defer db.Close()
	svc := commands.New(commands.Config{DB: db, Now: c.Now, Rand: rand.New(rand.NewPCG(1, 2)), Log: slog.New(slog.DiscardHandler)})
	return Play(ctx, Config{Service: svc, Now: c.Now, Lang: lang}, in, out)
}

// playScript runs a whole session on the given lines and returns what it
// printed.
func playScript(t *testing.T, path string, lines ...string) string {
	t.Helper()
	var out bytes.Buffer
	in := strings.NewReader(strings.Join(lines, "\n") + "\n")
	if err := playOn(context.Background(), newTestConfig(path), in, &out); err != nil {
		t.Fatalf("Play: %v\n%s", err, out.String())
	}
	return out.String()
}

// channelGame reads the terminal channel's live game, or the newest one
// when none is live, from the database file directly.
func channelGame(t *testing.T, path string, id int64) *match.Game {
	t.Helper()
	db, err := store.Open(context.Background(), store.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var g *match.Game
	if id > 0 {
		g, err = db.Game(context.Background(), id)
	} else {
		g, err = db.ChannelGame(context.Background(), channelID)
	}
	if err != nil {
		t.Fatalf("reading the game: %v", err)
	}
	return g
}

// terminal drives Play line by line through a pipe, waiting for each
// prompt, so a test can look at the game between moves.
type terminal struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *promptBuffer
	done chan error
	seen int
}

// promptBuffer collects output and signals every write.
type promptBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	wrote chan struct{}
}

func (b *promptBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, err := b.buf.Write(p)
	select {
	case b.wrote <- struct{}{}:
	default:
	}
	return n, err
}

func (b *promptBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func startTerminal(t *testing.T, path string) *terminal {
	t.Helper()
	r, w := io.Pipe()
	tm := &terminal{t: t, in: w, out: &promptBuffer{wrote: make(chan struct{}, 1)}, done: make(chan error, 1)}
	go func() {
		err := playOn(context.Background(), newTestConfig(path), r, tm.out)
		r.Close()
		tm.done <- err
	}()
	tm.wait()
	return tm
}

// wait returns the output since the last call, once Play asks for a line.
func (tm *terminal) wait() string {
	tm.t.Helper()
	// A guard against a hung session, not a timing assertion.
	guard := time.After(time.Minute)
	for {
		s := tm.out.String()
		if strings.HasSuffix(s, "> ") && len(s) > tm.seen {
			chunk := s[tm.seen:]
			tm.seen = len(s)
			return chunk
		}
		select {
		case <-tm.out.wrote:
		case err := <-tm.done:
			tm.t.Fatalf("Play ended early (%v):\n%s", err, tm.out.String())
		case <-guard:
			tm.t.Fatalf("no prompt after a minute:\n%s", tm.out.String())
		}
	}
}

// do types one line and returns what it printed.
func (tm *terminal) do(line string) string {
	tm.t.Helper()
	if _, err := io.WriteString(tm.in, line+"\n"); err != nil {
		tm.t.Fatal(err)
	}
	return tm.wait()
}

// close ends the input and checks Play returned nil.
func (tm *terminal) close() string {
	tm.t.Helper()
	tm.in.Close()
	if err := <-tm.done; err != nil {
		tm.t.Fatalf("Play: %v", err)
	}
	s := tm.out.String()
	return s[tm.seen:]
}

func mustContain(t *testing.T, out string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

// TestPlayWholeGameVsBot plays 3 4 5 against nimbot at perfect difficulty
// from the first move, choosing each move with the engine from the game the
// database holds, until the game ends; the player to move first from a
// winning position must win.
func TestPlayWholeGameVsBot(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nimbot.db")
	tm := startTerminal(t, path)
	out := tm.do("/nim start vs:bot heaps:3 4 5 first:me difficulty:perfect")
	mustContain(t, out, "== Nim ==", "A │ ●●● 3", "[1] A · 3", "Resign")

	g := channelGame(t, path, 0)
	id := g.ID
	for turn := 0; g.Status == match.Active; turn++ {
		if turn > 20 {
			t.Fatalf("game not over after 20 turns:\n%s", tm.out.String())
		}
		if g.ToMove() != localPlayers[0].ID {
			t.Fatalf("ply %d: %q to move, want player1 (nimbot answers in the same turn)", g.Ply, g.ToMove())
		}
		h, err := g.Rules.Hint(g.Position)
		if err != nil {
			t.Fatal(err)
		}
		if !h.MoverWins {
			t.Fatalf("ply %d: player1 is losing in %v after perfect play", g.Ply, g.Position.Heaps)
		}
		note := g.Rules.FormatMove(g.Position, h.Move)
		out = tm.do("/nim move notation:" + note)
		mustContain(t, out, "takes")
		g = channelGame(t, path, id)
	}
	if g.Status != match.Won || g.Winner != localPlayers[0].ID {
		t.Fatalf("game ended %s, winner %q; want won by player1:\n%s", g.Status, g.Winner, tm.out.String())
	}
	mustContain(t, out, "@player1 wins")
	if strings.Contains(out, "[1] A · 0\n") {
		t.Errorf("the final board still offers moves:\n%s", out)
	}
	tm.close()
}

// TestPlayHotSeat plays a challenge between the two local players: the
// keyboard follows the challenge and the turns without /as.
func TestPlayHotSeat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nimbot.db")
	out := playScript(t, path,
		"/nim start vs:2 heaps:1 2 first:me",
		"1",                       // accept, typed as player2 (the session switched)
		"/nim move heap:B take:1", // player1
		"/nim move heap:A take:1", // player2
		"/nim move notation:B1",   // player1 takes the last one
	)
	mustContain(t, out,
		"@player2, you have been challenged",
		"[1] Accept  [2] Decline",
		"now typing as @player2",
		"(@player1 to move: now typing as @player1)",
		"(@player2 to move: now typing as @player2)",
		"@player2 takes 1 from A",
		"@player1 wins",
	)
	g := channelGame(t, path, 1)
	if g.Status != match.Won || g.Winner != localPlayers[0].ID || g.Players != [2]string{localPlayers[0].ID, localPlayers[1].ID} {
		t.Fatalf("game = %s won by %q, players %v", g.Status, g.Winner, g.Players)
	}
}

// TestPlayResume quits mid-game and comes back: the second session shows
// the board through /nim status and its buttons carry on the same game.
func TestPlayResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nimbot.db")
	out := playScript(t, path,
		"/nim start heaps:3 4 5 first:me",
		"/nim move heap:A take:1",
		"quit",
		"/nim move heap:A take:1", // never read: quit came first
	)
	mustContain(t, out, "Game #1 · move 3", "The game is saved")
	g := channelGame(t, path, 0)
	if g.Ply != 2 || g.Status != match.Active {
		t.Fatalf("after the first session: ply %d, %s", g.Ply, g.Status)
	}

	tm := startTerminal(t, path)
	out = tm.out.String()
	mustContain(t, out, "Continuing this channel's game:", "Game #1 · move 3", "[4] 💡 Hint")
	// Press the board's heap C button, then take 1 from it.
	before := g.Position.Heaps[2]
	out = tm.do("3")
	mustContain(t, out, "Take 1")
	n := buttonNumber(t, out, "Take 1")
	out = tm.do(n)
	mustContain(t, out, "@player1 takes 1 from C")
	tm.close()

	// The pressed move is ply 2 of game 1, nimbot's answer ply 3.
	db, err := store.Open(context.Background(), store.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	moves, err := db.Moves(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 4 || moves[2].Player != localPlayers[0].ID || moves[2].Move.Heap != 2 || moves[2].Move.Take != 1 || moves[3].Player != match.BotID {
		t.Fatalf("moves after resuming = %+v, want 4 with player1's C1 third and nimbot's answer last", moves)
	}
	if before < 1 {
		t.Fatalf("heap C was empty before the move")
	}
}

// buttonNumber finds "[n] label" in out and returns n.
func buttonNumber(t *testing.T, out, label string) string {
	t.Helper()
	i := strings.Index(out, "] "+label)
	if i < 0 {
		t.Fatalf("no button %q in:\n%s", label, out)
	}
	j := strings.LastIndex(out[:i], "[")
	return out[j+1 : i]
}

// TestPlayBadInput: each bad line is answered with what is wrong and what to
// type, and the session goes on.
func TestPlayBadInput(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nimbot.db")
	tm := startTerminal(t, path)
	tests := []struct {
		line string
		want []string
	}{
		{"hello", []string{`! I don't understand "hello"`, "/nim move heap:B take:2", "help"}},
		{"/nim fly", []string{`! /nim has no subcommand "fly"`, "/nim start"}},
		{"/nim move heap:B take:x", []string{`! option take: "x" is not a whole number`, "Usage: /nim move"}},
		{"/nim start heaps:3 4 5 misere:perhaps", []string{`"perhaps" is not true or false`}},
		{"/nim start vs:carol", []string{`no user "carol" here`, "1 (@player1)"}},
		{"2", []string{"! there are no buttons to press yet", "/nim start"}},
		{"/as 3", []string{`! no local player "3"`, "/as 1 or /as 2"}},
		{"/nim move heap:A take:1", []string{"(only you can see this)"}}, // the service's own refusal: no game here
		{"/nim start heaps:3 4 5 first:me", []string{"== Nim =="}},
		// The 3-4-5 board has 7 controls: the heaps, Hint, Type a move,
		// Resign, and the one-click menu of every move.
		{"8", []string{"! there is no button 8", "1 to 7"}},
		{"/nim move heap:A take:9", []string{"(only you can see this)", "A"}},
	}
	for _, tt := range tests {
		out := tm.do(tt.line)
		t.Run(tt.line, func(t *testing.T) { mustContain(t, out, tt.want...) })
	}
	// Still answering after all that.
	mustContain(t, tm.do("/nim status"), "== Nim ==", "Game #1")
	mustContain(t, tm.do("help"), "/nim move heap:B take:2", "/as 1 or /as 2")
	tm.close()
}

// TestPlayFormAndHint types a move into the board's form (a Discord modal:
// one question per text input) and asks for a hint, which only the asker
// sees.
func TestPlayFormAndHint(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nimbot.db")
	tm := startTerminal(t, path)
	out := tm.do("/nim start heaps:3 4 5 first:me")
	mustContain(t, out, "== Nim ==")
	out = tm.do("/nim hint level:3")
	mustContain(t, out, "(only you can see this)", "Hint", "nim-sum")
	if strings.Contains(out, "`") || strings.Contains(out, "**") {
		t.Errorf("markdown left in:\n%s", out)
	}
	out = tm.do(buttonNumber(t, tm.out.String(), "⌨️ Type a move"))
	mustContain(t, out, "(a form; type /cancel to close it)")
	out = tm.do("A2")
	mustContain(t, out, "@player1 takes 2 from A")

	// A form closed with /cancel sends nothing.
	out = tm.do(buttonNumber(t, out, "⌨️ Type a move"))
	mustContain(t, out, "(a form; type /cancel to close it)")
	out = tm.do("/cancel")
	mustContain(t, out, "(form closed)")
	g := channelGame(t, path, 0)
	if g.Ply != 2 {
		t.Errorf("ply %d after a move and a cancelled form, want 2", g.Ply)
	}
	tm.close()
}

// TestPlayEndOfInput: input that ends mid-form or with no newline ends the
// session cleanly.
func TestPlayEndOfInput(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nimbot.db")
	for _, in := range []string{"", "/nim status", "/nim start heaps:3 4 5 first:me\n5"} {
		var out bytes.Buffer
		if err := playOn(context.Background(), newTestConfig(path), strings.NewReader(in), &out); err != nil {
			t.Errorf("Play(%q): %v", in, err)
		}
	}
}

// TestPlayInputCutShort: input that cannot be read to its end (a line of
// maxInput bytes or more, or a read error) ends Play with an error saying
// so, and nothing after it is played. Play used to return nil there, so
// `nimbot play < script` exited 0 having silently dropped the rest.
func TestPlayInputCutShort(t *testing.T) {
	diskGone := errors.New("disk gone")
	start := "/nim start heaps:3 4 5 first:me\n"
	later := "/nim move heap:A take:1\n"
	for _, c := range []struct {
		name string
		in   io.Reader
		want string
	}{
		{"a line too long", strings.NewReader(start + strings.Repeat("x", maxInput) + "\n" + later), "stopped reading input at a line of 1048576 bytes or more"},
		{"a read error", io.MultiReader(strings.NewReader(start), iotest.ErrReader(diskGone), strings.NewReader(later)), "stopped reading input: disk gone"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "nimbot.db")
			var out bytes.Buffer
			err := playOn(context.Background(), newTestConfig(path), c.in, &out)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Play = %v, want an error saying %q\n%s", err, c.want, out.String())
			}
			if c.name == "a read error" && !errors.Is(err, diskGone) {
				t.Errorf("Play = %v, want it to wrap the reader's error", err)
			}
			if g := channelGame(t, path, 1); g.Ply != 0 {
				t.Errorf("the game is at ply %d: a line after the cut was played", g.Ply)
			}
		})
	}
	// A line past maxLine but under maxInput is refused by itself, and the
	// session goes on.
	path := filepath.Join(t.TempDir(), "nimbot.db")
	out := playScript(t, path, start, strings.Repeat("x", maxLine+1), later)
	mustContain(t, out, "that line is 8,001 bytes long", "@player1 takes 1 from A")
}

// TestPlayMenus picks from a select menu (a Kayles row's moves) both ways:
// the option typed after the menu's number, and asked for on the next line
// after a wrong answer.
func TestPlayMenus(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nimbot.db")
	tm := startTerminal(t, path)
	out := tm.do("/nim start variant:kayles heaps:5 8 first:me")
	mustContain(t, out, "== Kayles ==", "[1] A · 5")
	out = tm.do("1") // row A: its moves come as a menu
	menu := buttonNumber(t, out, "Pick a move in A ▾")
	out = tm.do(menu)
	mustContain(t, out, "pick one option by number", "(2) knocks down pins 1 and 2 of row A", "pick> ")
	out = tm.do("x")
	mustContain(t, out, `! "x" is not one of the options 1 to 9`, "pick> ")
	out = tm.do("2")
	mustContain(t, out, "@player1 knocks down pins 1 and 2 of row A")

	// Second move: the pick typed on the same line.
	g := channelGame(t, path, 0)
	row := -1
	for i, h := range g.Position.Heaps {
		if h >= 2 {
			row = i
			break
		}
	}
	label := engine.HeapLabel(row)
	out = tm.do(buttonNumber(t, out, label+" · "))
	out = tm.do(buttonNumber(t, out, "Pick a move in "+label+" ▾") + " 1")
	mustContain(t, out, "@player1 knocks down pin 1 of row "+label)
	tm.close()
}

// TestPlayExpiry lets the turn deadline pass between two lines: the next
// line first shows the board the deadline sweep edited, as bot's scheduler
// would have.
func TestPlayExpiry(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nimbot.db")
	var mu sync.Mutex
	now := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	cfg := newTestConfig(path)
	cfg.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	r, w := io.Pipe()
	var out promptBuffer
	out.wrote = make(chan struct{}, 1)
	done := make(chan error, 1)
	go func() { done <- playOn(context.Background(), cfg, r, &out) }()
	tm := &terminal{t: t, in: w, out: &out, done: done}
	tm.wait()
	mustContain(t, tm.do("/nim start heaps:3 4 5 first:me"), "Move in 1 hour")
	mu.Lock()
	now = now.Add(2 * time.Hour)
	mu.Unlock()
	got := tm.do("/nim status")
	mustContain(t, got, "board updated: time ran out")
	tm.close()
	g := channelGame(t, path, 1)
	// A game nobody moved in is abandoned, not lost on time; either way it
	// is over.
	if !g.Status.Finished() {
		t.Errorf("game status %s, want finished", g.Status)
	}
}

// TestParseRealDefinitions: the commands README and help show parse against
// the definitions commands registers.
func TestParseRealDefinitions(t *testing.T) {
	defs := commands.Definitions()
	for _, line := range []string{
		"/nim start vs:bot heaps:3 4 5 misere:true",
		"/nim start vs:2 heaps:3 4 5",
		"/nim start variant:subtraction set:1,3,4 heaps:7 9 difficulty:perfect first:me",
		"/nim move heap:B take:2",
		"/nim move notation:B2",
		"/nim hint", "/nim hint level:3", "/nim resign", "/nim status",
		"/nim analyze position:3 4 5",
	} {
		if _, err := (words{}).parseLine(line, defs, localPlayers, nimbotUser); err != nil {
			t.Errorf("%s: %v", line, err)
		}
	}
}

// TestPlayLang plays a short game with Lang "de": the board and the
// service's refusals come in German (the catalog's text, as a Discord user
// with German sees them); an unknown language is an error before anything
// is played.
func TestPlayLang(t *testing.T) {
	c := newTestConfig(filepath.Join(t.TempDir(), "nimbot.db"))
	db, err := store.Open(context.Background(), store.Config{Path: c.path, Now: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := commands.New(commands.Config{DB: db, Now: c.Now, Rand: rand.New(rand.NewPCG(1, 2)), Log: slog.New(slog.DiscardHandler)})
	var out bytes.Buffer
	in := strings.NewReader("/nim start heaps:1 2 first:me\n/nim start\n")
	if err := Play(context.Background(), Config{Service: svc, Now: c.Now, Lang: "de"}, in, &out); err != nil {
		t.Fatal(err)
	}
	// The catalog's German (terminal reads no catalog: commands/locale is
	// commands' own): the Resign button, and the start of "a game is
	// already running in this channel".
	for _, want := range []string{"Aufgeben", "In diesem Kanal"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("want %q in the German session:\n%s", want, out.String())
		}
	}
	out.Reset()
	err = Play(context.Background(), Config{Service: svc, Now: c.Now, Lang: "xx"}, strings.NewReader("/nim start\n"), &out)
	if err == nil || !strings.Contains(err.Error(), `unknown language "xx"`) || out.Len() != 0 {
		t.Fatalf("Lang xx: %v, printed %q", err, out.String())
	}
}

// TestPlayLangClientText: in a session with -lang, what the terminal
// draws in Discord's client's place comes in that language too: the
// board's deadline (<t:…:R>), the note on an answer only the player sees,
// the mark of a disabled button. They were English in every session
// ("Zug fällig in 59 minutes", "期限は in 59 minutes です").
func TestPlayLangClientText(t *testing.T) {
	c := newTestConfig(filepath.Join(t.TempDir(), "nimbot.db"))
	db, err := store.Open(context.Background(), store.Config{Path: c.path, Now: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := commands.New(commands.Config{DB: db, Now: c.Now, Rand: rand.New(rand.NewPCG(1, 2)), Log: slog.New(slog.DiscardHandler)})
	for _, tc := range []struct {
		lang string
		want []string
	}{
		{"de", []string{"in 59 Minuten", "(nur du kannst das sehen)", "(deaktiviert)"}},
		{"ja", []string{"59 分後", "（これはあなただけに表示されています）", "（無効）"}},
	} {
		var out bytes.Buffer
		in := strings.NewReader("/nim start heaps:1 2 first:me\n/nim hint\n/nim end\n")
		if err := Play(context.Background(), Config{Service: svc, Now: c.Now, Lang: tc.lang}, in, &out); err != nil {
			t.Fatal(err)
		}
		mustContain(t, out.String(), tc.want...)
		for _, english := range []string{" minutes", "only you can see this", "(disabled)"} {
			if strings.Contains(out.String(), english) {
				t.Errorf("%s session shows %q:\n%s", tc.lang, english, out.String())
			}
		}
	}
}

// TestPlayButtonWithExtraWords: words after a button's number are refused
// and nothing is pressed. They used to be dropped, so "4 2" typed at the
// Resign button (which asks for no confirmation) resigned the game.
func TestPlayButtonWithExtraWords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nimbot.db")
	tm := startTerminal(t, path)
	out := tm.do("/nim start heaps:3 4 5 first:me")
	resign := buttonNumber(t, out, "🏳️ Resign")
	before := channelGame(t, path, 0)
	for _, line := range []string{resign + " 2", resign + " x", "1 3", "1 1,2"} {
		out := tm.do(line)
		mustContain(t, out, "! button "+strings.Fields(line)[0]+" (", "takes nothing after its number", "Nothing was pressed.")
		if strings.Contains(out, "nimbot") {
			t.Errorf("%q reached the service:\n%s", line, out)
		}
		g := channelGame(t, path, before.ID)
		if g.Status != match.Active || g.Ply != before.Ply {
			t.Fatalf("%q changed the game: %s at ply %d, was %s at ply %d", line, g.Status, g.Ply, before.Status, before.Ply)
		}
	}
	// The number alone still presses: heap A's button offers its takes.
	mustContain(t, tm.do("1"), "Take 1")
	tm.close()
}

// TestParseLocalizedNames: nimbot's messages name subcommands, options and
// choices as Discord shows them to the reader, so the terminal reads a line
// written with the names of any of Discord's languages as it reads the
// English one.
func TestParseLocalizedNames(t *testing.T) {
	defs := commands.Definitions()
	nim := findCommand(defs, "nim")
	sub := func(name string) *discordgo.ApplicationCommandOption { return findOption(nim.Options, name) }
	start, move := sub("start"), sub("move")
	variant := findOption(start.Options, "variant")
	var kayles *discordgo.ApplicationCommandOptionChoice
	for _, c := range variant.Choices {
		if c.Value == "kayles" {
			kayles = c
		}
	}
	for _, lang := range []discordgo.Locale{discordgo.German, discordgo.French, discordgo.Japanese} {
		for english, local := range map[string]string{
			"/nim move heap:B take:2": "/nim " + move.NameLocalizations[lang] + " " +
				findOption(move.Options, "heap").NameLocalizations[lang] + ":B " +
				findOption(move.Options, "take").NameLocalizations[lang] + ":2",
			"/nim start variant:kayles heaps:3 4": "/nim " + start.NameLocalizations[lang] + " " +
				variant.NameLocalizations[lang] + ":" + kayles.NameLocalizations[lang] + " " +
				findOption(start.Options, "heaps").NameLocalizations[lang] + ":3 4",
		} {
			want, err := words{}.parseLine(english, defs, localPlayers, nimbotUser)
			if err != nil {
				t.Fatalf("%s: %v", english, err)
			}
			got, err := words{}.parseLine(local, defs, localPlayers, nimbotUser)
			if err != nil {
				t.Fatalf("%s (%s): %v", local, lang, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s reads as %+v, %s as %+v", local, got, english, want)
			}
		}
	}
}
