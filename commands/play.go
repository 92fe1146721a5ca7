package commands

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"nimbot/engine"
	"nimbot/match"
)

// Refusals shared by several handlers (play.en.json), each with the
// commands it points to, named as the user's Discord shows them.
func errNoGame() error     { return userErr("play.err.no_game", "StartCommand", subName(subStart)) }
func errStale() error      { return userErr("play.err.stale", "StatusCommand", subName(subStatus)) }
func errNotPlaying() error { return userErr("play.err.not_playing", "StartCommand", subName(subStart)) }
func errOver() error       { return userErr("play.err.over", "StartCommand", subName(subStart)) }
func errOtherChannel() error {
	return userErr("play.err.other_channel", "StatusCommand", subName(subStatus))
}

// controlGame loads the game a board control names, and only if it is the
// game of the channel (and server) the control was clicked in: custom_ids
// come from the client, and a control naming another channel's game would
// act on that game and draw its board over this channel's. A click on a
// board that a newer one replaced is answered there (supersededBoard).
func (s *Service) controlGame(r *request, id int64) (*match.Game, error) {
	g, err := s.anyGame(r, id)
	if err != nil {
		return nil, err
	}
	if err := inChannel(r, g); err != nil {
		return nil, err
	}
	if err := s.supersededBoard(r, g); err != nil {
		return nil, err
	}
	return g, nil
}

// inChannel refuses a control of g clicked outside g's channel (see
// controlGame), or in a channel of its id that a request places elsewhere
// (atGame).
func inChannel(r *request, g *match.Game) error {
	if g.ChannelID != r.origin.channel {
		return errOtherChannel()
	}
	return atGame(r, g)
}

// anyGame loads the game a control names, wherever it is played.
func (s *Service) anyGame(r *request, id int64) (*match.Game, error) {
	g, err := s.db.Game(r.ctx, id)
	if errors.Is(err, match.ErrNotFound) {
		return nil, userErr("play.err.game_gone", "StartCommand", subName(subStart))
	}
	if err != nil {
		return nil, fmt.Errorf("load game %d: %w", id, err)
	}
	return g, nil
}

// channelGame loads the channel's pending or active game, and only if it
// is played where r comes from (atGame): the channel's id alone does not
// say which server a request is from.
func (s *Service) channelGame(r *request) (*match.Game, error) {
	g, err := s.db.ChannelGame(r.ctx, r.origin.channel)
	if errors.Is(err, match.ErrNotFound) {
		return nil, errNoGame()
	}
	if err != nil {
		return nil, fmt.Errorf("load channel game: %w", err)
	}
	if err := atGame(r, g); err != nil {
		return nil, err
	}
	return g, nil
}

// turnGame loads the game a board control names and checks that the
// control is current (drawn at ply) and that the user is the one to move.
func (s *Service) turnGame(r *request, id int64, ply int) (*match.Game, error) {
	g, err := s.controlGame(r, id)
	if err != nil {
		return nil, err
	}
	if err := s.checkControl(r, g, ply); err != nil {
		return nil, err
	}
	return g, nil
}

// turnBoard is turnGame for the controls that draw the board or play on it:
// the game comes with its moves and the hint mark of its player to move,
// read in one store call (match.Storage.Board) rather than three, or, on a
// move handler's first attempt (fromRecent), taken from the board kept of
// the game's last commit here.
func (s *Service) turnBoard(r *request, id int64, ply int) (*match.Board, error) {
	var b *match.Board
	if r.tryKept {
		b, _ = s.recent.at(id, ply, r.now)
		r.kept = b
	}
	if b == nil {
		var err error
		b, err = s.db.Board(r.ctx, id)
		if errors.Is(err, match.ErrNotFound) {
			return nil, userErr("play.err.game_gone", "StartCommand", subName(subStart))
		}
		if err != nil {
			return nil, fmt.Errorf("load game %d: %w", id, err)
		}
	}
	if err := inChannel(r, b.Game); err != nil {
		return nil, err
	}
	if err := s.supersededBoard(r, b.Game); err != nil {
		return nil, err
	}
	if err := s.checkControl(r, b.Game, ply); err != nil {
		return nil, err
	}
	return b, nil
}

// checkControl says why a control drawn at ply of g may not be used by r's
// user now, if it may not; a click on the board of a game settled since
// gets that board (settledBoard).
func (s *Service) checkControl(r *request, g *match.Game, ply int) error {
	if err := checkTurn(g, r.userID()); err != nil {
		if settled := s.settledBoard(r, g); settled != nil {
			return settled
		}
		return err
	}
	if g.Ply != ply {
		return errStale()
	}
	return nil
}

// checkTurn says why user may not move in g, if they may not.
func checkTurn(g *match.Game, user string) error {
	switch {
	case g.Status == match.Pending:
		return userErr("play.err.pending", "Player", name(g.Challenged()))
	case g.Status.Finished():
		return errOver()
	case !g.IsPlayer(user):
		return errNotPlaying()
	case user != g.ToMove() && g.ToMove() == match.BotID:
		// Unreachable while nimbot's moves are committed with the move or
		// start before them; said plainly should a database ever hold it.
		return userErr("play.err.bot_turn")
	case user != g.ToMove():
		return userErr("play.err.other_turn", "Player", name(g.ToMove()))
	}
	return nil
}

// boardOf reads what playing on g needs besides g, for a game loaded
// without it (by channel, or to resign): its moves and, with hint, the
// hint mark of its player to move (see match.Board).
func (s *Service) boardOf(r *request, g *match.Game, hint bool) (*match.Board, error) {
	moves, err := s.db.Moves(r.ctx, g.ID)
	if err != nil {
		return nil, fmt.Errorf("load moves of game %d: %w", g.ID, err)
	}
	b := &match.Board{Game: g, Moves: moves}
	if hint && g.ToMove() != match.BotID {
		if b.Hinted, err = s.db.HintUsed(r.ctx, g.ID, g.Ply, g.ToMove()); err != nil {
			return nil, fmt.Errorf("hint used in game %d: %w", g.ID, err)
		}
	}
	return b, nil
}

// loadBoard reads the moves of g for drawing its board.
func (s *Service) loadBoard(r *request, g *match.Game) (board, error) {
	moves, err := s.db.Moves(r.ctx, g.ID)
	if err != nil {
		return board{}, fmt.Errorf("load moves of game %d: %w", g.ID, err)
	}
	return board{g: g, moves: moves, selected: -1}, nil
}

// updateOrNew answers a board click by editing the board in place, and a
// slash command or a click elsewhere with a new board message.
func updateOrNew(r *request) discordgo.InteractionResponseType {
	if r.i.Type == discordgo.InteractionMessageComponent || (r.i.Type == discordgo.InteractionModalSubmit && r.i.Message != nil) {
		return discordgo.InteractionResponseUpdateMessage
	}
	return discordgo.InteractionResponseChannelMessageWithSource
}

// pickHeap redraws the board with a heap picked, showing its amounts. It
// changes nothing in the store: the pick lives only in the components.
func (s *Service) pickHeap(r *request, c HeapControl) (*answer, error) {
	b, err := s.turnBoard(r, c.Game, c.Ply)
	if err != nil {
		return nil, err
	}
	return s.showHeap(b, c.Heap, -1)
}

// pickHeapMenu is pickHeap from the heap menu, whose values are a heap, or
// "page:N" to turn the menu's page.
func (s *Service) pickHeapMenu(r *request, c HeapMenuControl) (*answer, error) {
	b, err := s.turnBoard(r, c.Game, c.Ply)
	if err != nil {
		return nil, err
	}
	g := b.Game
	vals := r.i.MessageComponentData().Values
	if len(vals) != 1 {
		return nil, userErr("play.err.pick_heap")
	}
	if n, ok := strings.CutPrefix(vals[0], "page:"); ok {
		// A page turn of the heap menu (see heapMenu).
		_, pages := heapPages(g.Position)
		p, perr := strconv.Atoi(n)
		if perr != nil || p < 0 || p >= pages {
			return nil, userErr("play.err.heap_page", "StatusCommand", subName(subStatus))
		}
		return s.showHeap(b, -1, p)
	}
	heap, err := strconv.Atoi(vals[0])
	if err != nil || heap < 0 {
		return nil, userErr("play.err.no_heap", "Heaps", heapRange(g.Position))
	}
	return s.showHeap(b, heap, -1)
}

// showHeap redraws the board of mb's game with heap picked, or (heap -1) the
// heap menu's page turned.
func (s *Service) showHeap(mb *match.Board, heap, page int) (*answer, error) {
	g := mb.Game
	if page < 0 && heap >= len(g.Position.Heaps) {
		return nil, userErr("play.err.no_heap", "Heaps", heapRange(g.Position))
	}
	b := board{g: g, moves: mb.Moves, selected: -1}
	if page >= 0 {
		b.page = page
	} else {
		b.selected = heap
	}
	return unchanged(b.response(discordgo.InteractionResponseUpdateMessage)), nil
}

// heapRange says which heaps p has, as an argument of another message.
func heapRange(p engine.Position) engine.Phrase {
	if len(p.Heaps) == 1 {
		return msg("play.heaps.one")
	}
	return msg("play.heaps.range", "Last", engine.HeapLabel(len(p.Heaps)-1))
}

// moveButton plays "take {take} from {heap}".
func (s *Service) moveButton(r *request, c MoveControl) (*answer, error) {
	b, err := s.turnBoard(r, c.Game, c.Ply)
	if err != nil {
		return nil, err
	}
	return s.play(r, b, engine.Move{Kind: engine.Take, Heap: c.Heap, Take: c.Take})
}

// moveSelect plays the move picked from a select menu (values are moves in
// the engine's notation).
func (s *Service) moveSelect(r *request, c MoveMenuControl) (*answer, error) {
	b, err := s.turnBoard(r, c.Game, c.Ply)
	if err != nil {
		return nil, err
	}
	g := b.Game
	vals := r.i.MessageComponentData().Values
	if len(vals) != 1 {
		return nil, userErr("play.err.pick_move")
	}
	m, err := g.Rules.ParseMove(g.Position, vals[0])
	if err != nil {
		return nil, moveInputError(err, vals[0])
	}
	return s.play(r, b, m)
}

// askAmount opens a modal for the amount to take from a heap too large for
// a menu.
func (s *Service) askAmount(r *request, c AskControl) (*answer, error) {
	g, err := s.turnGame(r, c.Game, c.Ply)
	if err != nil {
		return nil, err
	}
	heap := c.Heap
	if heap >= len(g.Position.Heaps) {
		return nil, userErr("play.err.no_heap", "Heaps", heapRange(g.Position))
	}
	label := engine.HeapLabel(heap)
	q := r.t("play.modal.amount", "Heap", label, "Size", g.Position.Heaps[heap])
	placeholder := r.t("play.modal.amount_placeholder")
	if describe(g.Rules.Variant).Has(engine.Knock) {
		q = r.t("play.modal.pins", "Row", label, "Pins", g.Position.Heaps[heap])
		placeholder = r.t("play.modal.pins_placeholder")
	}
	return unchanged(modal(AmountModal{Game: g.ID, Ply: g.Ply, Heap: heap}.CustomID(), r.t("play.modal.title_heap", "Heap", label), q, placeholder, 20)), nil
}

// amountSubmit plays the amount typed into askAmount's modal.
func (s *Service) amountSubmit(r *request, c AmountModal) (*answer, error) {
	b, err := s.turnBoard(r, c.Game, c.Ply)
	if err != nil {
		return nil, err
	}
	g := b.Game
	heap := c.Heap
	if heap >= len(g.Position.Heaps) {
		return nil, userErr("play.err.no_heap", "Heaps", heapRange(g.Position))
	}
	text := strings.TrimSpace(modalValue(r.i))
	if describe(g.Rules.Variant).Has(engine.Knock) {
		// The form asks for pins of this row, and its text is joined to the
		// row's label: anything but "4" or "4-5" would read as another move
		// ("B5" typed for row A as "AB5", a pin of row AB or a move in
		// both heaps).
		pins, ok := pinsNotation(text, r.lang)
		if !ok {
			return nil, userErr("play.err.not_pins", "Text", quote(text, 40), "Row", engine.HeapLabel(heap))
		}
		m, err := g.Rules.ParseMove(g.Position, engine.HeapLabel(heap)+pins)
		if err != nil {
			return nil, moveInputError(err, text)
		}
		return s.play(r, b, m)
	}
	n, shape := parseAmount(text, r.lang)
	switch {
	case shape == amountBadGroups:
		return nil, userErr("play.err.amount_groups", "Text", quote(text, 40), "Example", 1500, "Plain", "1500")
	case shape == amountTooLarge:
		// A number, only more than any heap holds: "not a number" would
		// send the player looking for a typo.
		return nil, userErr("play.err.amount_large", "Text", quote(text, 40), "Heap", engine.HeapLabel(heap), "Size", g.Position.Heaps[heap])
	case shape != amountOK || n < 1:
		return nil, userErr("play.err.not_number", "Text", quote(text, 40))
	}
	return s.play(r, b, engine.Move{Kind: engine.Take, Heap: heap, Take: n})
}

// isDigits reports whether s is one or more ASCII digits.
func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// splitParts reads the split option as the engine's "2+3": two numbers
// joined by a plus, spaces around either allowed ("2 + 3"). Any other shape
// is not ok. The text is joined to the heap's label, and "B=2 + 3" or
// "B=2, 3" read as another kind of move, refused with advice about that
// one instead of about splits.
func splitParts(s string) (string, bool) {
	a, b, ok := strings.Cut(s, "+")
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	if !ok || !isDigits(a) || !isDigits(b) {
		return "", false
	}
	return a + "+" + b, true
}

// askMove opens a modal where any move can be typed in the engine's notation.
func (s *Service) askMove(r *request, c TypeControl) (*answer, error) {
	g, err := s.turnGame(r, c.Game, c.Ply)
	if err != nil {
		return nil, err
	}
	return unchanged(modal(TypedModal{Game: g.ID, Ply: g.Ply}.CustomID(), r.t("play.modal.title"), r.t("play.modal.title"), r.lang.Phrase(notationExample(g.Rules)), 100)), nil
}

// typedSubmit plays the move typed into askMove's modal.
func (s *Service) typedSubmit(r *request, c TypedModal) (*answer, error) {
	b, err := s.turnBoard(r, c.Game, c.Ply)
	if err != nil {
		return nil, err
	}
	g := b.Game
	text := strings.TrimSpace(modalValue(r.i))
	m, err := g.Rules.ParseMove(g.Position, text)
	if err != nil {
		return nil, moveInputError(err, text)
	}
	return s.play(r, b, m)
}

// notationExample shows how moves are typed in a variant, as a phrase: the
// example moves are notation, the words around them the reader's.
func notationExample(r engine.Rules) engine.Phrase {
	d := describe(r.Variant)
	if d.Variant == "" {
		return engine.Lit("")
	}
	return d.NotationPhrase()
}

// moveCommand plays /nim move.
func (s *Service) moveCommand(r *request) (*answer, error) {
	g, err := s.channelGame(r)
	if err != nil {
		return nil, err
	}
	if err := checkTurn(g, r.userID()); err != nil {
		return nil, err
	}
	o := subOptions(r.i)
	text, err := moveNotation(g, o)
	if err != nil {
		return nil, err
	}
	m, err := g.Rules.ParseMove(g.Position, text)
	if err != nil {
		return nil, moveInputError(err, text)
	}
	b, err := s.boardOf(r, g, true)
	if err != nil {
		return nil, err
	}
	return s.play(r, b, m)
}

// moveNotation turns /nim move's options into the engine's notation. Each
// option is checked for what it is before it is joined into notation: an
// option the game has no use for, or two that contradict each other, would
// otherwise be dropped or misread and play a move the player did not ask
// for (pin:1 in Nim took 1, both:true in a game with a heap AB played on
// AB).
func moveNotation(g *match.Game, o options) (string, error) {
	given := func(name string) bool {
		switch name {
		case optBoth:
			return o.bool(name) // both:false asks for nothing
		case optTake, optPin:
			return o.has(name)
		}
		return strings.TrimSpace(o.str(name)) != ""
	}
	clash := func(a string, others ...string) error {
		for _, b := range others {
			if given(a) && given(b) {
				return userErr("play.err.option_clash", "A", optionName(a), "B", optionName(b))
			}
		}
		return nil
	}
	if err := clash(optNotation, optHeap, optTake, optBoth, optSplit, optPin); err != nil {
		return "", err
	}
	if n := strings.TrimSpace(o.str(optNotation)); n != "" {
		return n, nil
	}
	heap := ""
	if text := strings.TrimSpace(o.str(optHeap)); text != "" {
		// The heap is joined to an amount below, so anything but one of
		// this game's labels would read as another move: "1" with take:3
		// as 13 from the only heap, "A1" with take:2 as A12.
		i, ok := engine.HeapIndex(text)
		if !ok || i >= len(g.Position.Heaps) {
			return "", userErr("play.err.not_heap", "Heap", quote(text, 10), "Heaps", heapRange(g.Position), "Option", optionName(optHeap))
		}
		heap = engine.HeapLabel(i)
	}
	d := describe(g.Rules.Variant)
	for _, v := range []struct {
		option string
		kind   engine.MoveKind
	}{{optPin, engine.Knock}, {optBoth, engine.Diagonal}, {optSplit, engine.Split}} {
		if given(v.option) && !d.Has(v.kind) {
			return "", userErr("play.err.option_variant", "Option", optionName(v.option), "Variant", variantWith(v.kind), "Game", g.Rules.NamePhrase())
		}
	}
	if err := clash(optBoth, optHeap, optSplit, optPin); err != nil {
		return "", err
	}
	if err := clash(optSplit, optTake, optPin); err != nil {
		return "", err
	}
	take := o.int(optTake)
	switch {
	case d.Counting:
		if take <= 0 {
			return "", userErr("play.err.say_count", "TakeOption", optionName(optTake))
		}
		return strconv.FormatInt(take, 10), nil
	case given(optBoth):
		if take <= 0 {
			return "", userErr("play.err.say_both", "TakeOption", optionName(optTake))
		}
		return fmt.Sprintf("AB%d", take), nil
	case heap == "" && len(g.Position.Heaps) == 1:
		heap = "A"
	case heap == "":
		return "", userErr("play.err.say_heap", "Heaps", heapRange(g.Position), "Example", notationExample(g.Rules),
			"HeapOption", optionName(optHeap), "TakeOption", optionName(optTake))
	}
	switch {
	case given(optSplit):
		text := strings.TrimSpace(o.str(optSplit))
		parts, ok := splitParts(text)
		if !ok {
			return "", userErr("play.err.split_form", "Text", quote(text, 40), "Heap", heap, "Option", optionName(optSplit))
		}
		return heap + "=" + parts, nil
	case d.Has(engine.Knock) && !given(optPin):
		return "", userErr("play.err.say_pin", "Row", heap, "Game", variantWith(engine.Knock),
			"PinOption", optionName(optPin), "TakeOption", optionName(optTake))
	case given(optPin):
		pin := o.int(optPin)
		switch {
		case !given(optTake) || take == 1:
			return fmt.Sprintf("%s%d", heap, pin), nil
		case take == 2:
			return fmt.Sprintf("%s%d-%d", heap, pin, pin+1), nil
		}
		return "", userErr("play.err.pin_take", "Pin", optionName(optPin), "Take", optionName(optTake), "N", take)
	case take > 0:
		return fmt.Sprintf("%s%d", heap, take), nil
	}
	return "", userErr("play.err.say_take", "Heap", heap, "HeapOption", optionName(optHeap), "TakeOption", optionName(optTake))
}

// variantWith names the first game with moves of kind k (Kayles for a
// knock), which an option making such a move belongs to.
func variantWith(k engine.MoveKind) engine.Phrase {
	for _, v := range engine.Variants() {
		if d := describe(v); d.Has(k) {
			return d.TitlePhrase()
		}
	}
	return engine.Lit(fmt.Sprint(k))
}

// moveInputError explains a move that could not be read or played.
func moveInputError(err error, text string) error {
	var me *engine.MoveError
	switch {
	case errors.As(err, &me):
		return userErr("refusal.move.not_allowed", "Reason", engineReason(me))
	case errors.Is(err, engine.ErrGameOver):
		return errOver()
	case errors.Is(err, engine.ErrInvalid):
		return userErr("refusal.move.unreadable", "Move", fmt.Sprintf("%q", quote(text, 40)), "Reason", engineReason(err))
	}
	return err
}

// play makes the user's move m in b's game and, against nimbot, nimbot's
// reply, in one Storage.Commit together with the response, so nothing is
// half done and a redelivered interaction cannot move twice.
func (s *Service) play(r *request, b *match.Board, m engine.Move) (*answer, error) {
	g := b.Game
	next, err := g.Play(m, r.now, s.timing)
	if errors.Is(err, match.ErrOverdue) {
		return s.expireOn(r, b, updateOrNew(r))
	}
	if err != nil {
		return nil, moveInputError(err, g.Rules.FormatMove(g.Position, m))
	}
	moves := []engine.Move{m}
	if next.Status == match.Active && next.ToMove() == match.BotID {
		var bm engine.Move
		var cerr error
		s.withRand(func(rng *rand.Rand) { bm, cerr = g.Rules.Choose(next.Position, g.Difficulty, rng) })
		if cerr != nil {
			return nil, fmt.Errorf("nimbot's reply in game %d: %w", g.ID, cerr)
		}
		if next, err = next.Play(bm, r.now, s.timing); err != nil {
			return nil, fmt.Errorf("nimbot's reply %v in game %d: %w", bm, g.ID, err)
		}
		moves = append(moves, bm)
	}
	return s.commitBoard(r, b, next, moves, updateOrNew(r))
}

// commitTurn stores a turn without moves from g to next (a resignation, an
// end, an accepted or declined challenge) and answers with the new board.
func (s *Service) commitTurn(r *request, g, next *match.Game, t discordgo.InteractionResponseType) (*answer, error) {
	b, err := s.boardOf(r, g, false)
	if err != nil {
		return nil, err
	}
	return s.commitBoard(r, b, next, nil, t)
}

// commitBoard stores the turn from b's game to next, playing moves, and
// answers with the new board. The response is rendered before the commit,
// from the same data, and saved with it.
func (s *Service) commitBoard(r *request, b *match.Board, next *match.Game, moves []engine.Move, t discordgo.InteractionResponseType) (*answer, error) {
	g := b.Game
	all := make([]match.Move, len(b.Moves), len(b.Moves)+len(moves))
	copy(all, b.Moves)
	for k, m := range moves {
		ply := g.Ply + k
		mover := g.Players[ply%2]
		// The store marks the move hinted inside Commit; the board drawn
		// (and saved) before it shows the same mark.
		hinted := false
		switch {
		case mover == match.BotID:
		case k == 0:
			// The player to move at the game's ply: b has their mark.
			hinted = b.Hinted
		default:
			// Only nimbot replies in the same turn; asked should that change.
			var err error
			if hinted, err = s.db.HintUsed(r.ctx, g.ID, ply, mover); err != nil {
				return nil, fmt.Errorf("hint used in game %d: %w", g.ID, err)
			}
		}
		all = append(all, match.Move{GameID: g.ID, Ply: ply, Player: mover, Move: m, Hinted: hinted, At: r.now})
	}
	var seen *match.Seen
	if b == r.kept {
		if len(moves) == 0 {
			return nil, errNotFromRecent
		}
		seen = &match.Seen{MessageID: g.MessageID, Hinted: b.Hinted}
	}
	next.UpdatedAt = r.now
	resp := board{g: next, moves: all, selected: -1}.response(t)
	return s.answers.commit(r, g.ID, func(interactionID string, keep func(*discordgo.InteractionResponse) ([]byte, error)) (bool, error) {
		enc, err := keep(resp)
		if err != nil {
			return false, err
		}
		committed, err := s.db.Commit(r.ctx, match.Change{
			GameID: g.ID, Ply: g.Ply, From: g.Status,
			Moves: moves, Position: next.Position,
			Status: next.Status, Winner: next.Winner, Deadline: next.Deadline,
			Players:       playersChange(g, next),
			InteractionID: interactionID, Response: enc,
			Seen: seen,
		})
		if err != nil {
			s.recent.drop(g.ID)
			return false, fmt.Errorf("commit turn of game %d: %w", g.ID, err)
		}
		// A new ply's mover has not asked for a hint at it yet.
		s.recent.keep(committed, all, len(moves) == 0 && b.Hinted, r.now)
		return true, nil
	})
}

func playersChange(g, next *match.Game) *[2]string {
	if g.Players == next.Players {
		return nil
	}
	p := next.Players
	return &p
}

// resignButton resigns from the board; on the board of a game over, left
// as it was at the end, it redraws that board (settledBoard).
func (s *Service) resignButton(r *request, c ResignControl) (*answer, error) {
	g, err := s.controlGame(r, c.Game)
	if err != nil {
		return nil, err
	}
	if err := s.settledBoard(r, g); err != nil {
		return nil, err
	}
	if g.Ply != c.Ply && !g.Status.Finished() {
		return nil, errStale()
	}
	return s.resign(r, g)
}

// resignCommand resigns the channel's game: at any ply, so a move that
// lands between the read and the write is no reason to refuse
// (retryCommand).
func (s *Service) resignCommand(r *request) (*answer, error) {
	return retryCommand(func() (*answer, error) {
		g, err := s.channelGame(r)
		if err != nil {
			return nil, err
		}
		return s.resign(r, g)
	})
}

// resign ends g with the other player as the winner. A player may resign on
// either player's turn.
func (s *Service) resign(r *request, g *match.Game) (*answer, error) {
	next, err := g.Resign(r.userID(), r.now)
	switch {
	case errors.Is(err, match.ErrOverdue):
		return s.expireNow(r, g, updateOrNew(r))
	case errors.Is(err, match.ErrOver):
		return nil, errOver()
	case errors.Is(err, match.ErrNotPlayer):
		return nil, errNotPlaying()
	case errors.Is(err, match.ErrNotStarted):
		return nil, userErr("play.err.resign_pending", "EndCommand", subName(subEnd))
	case err != nil:
		return nil, err
	}
	return s.commitTurn(r, g, next, updateOrNew(r))
}

// end stops the channel's game without a winner: a player may, and so may a
// member who can manage messages (a moderator clearing a stuck channel). It
// holds at any ply, so a move that lands between the read and the write is
// no reason to refuse (retryCommand).
func (s *Service) end(r *request) (*answer, error) {
	return retryCommand(func() (*answer, error) { return s.endGame(r) })
}

// endGame is one attempt of end, on the channel's game as it is read.
func (s *Service) endGame(r *request) (*answer, error) {
	g, err := s.channelGame(r)
	if err != nil {
		return nil, err
	}
	user := r.userID()
	if user != g.Players[0] && user != g.Players[1] && user != g.CreatedBy && !r.moderates(g) {
		if g.GuildID == "" {
			// Manage Messages is a server's permission: outside servers
			// only the players may end a game.
			return nil, userErr("play.err.end_rights_players")
		}
		return nil, userErr("play.err.end_rights")
	}
	next, err := g.End(r.now)
	switch {
	case errors.Is(err, match.ErrOverdue):
		return s.expireNow(r, g, discordgo.InteractionResponseChannelMessageWithSource)
	case errors.Is(err, match.ErrOver):
		return nil, errOver()
	case err != nil:
		return nil, err
	}
	return s.commitTurn(r, g, next, discordgo.InteractionResponseChannelMessageWithSource)
}

// expireNow answers an action on g that came at or after its deadline
// (match.ErrOverdue) with what the deadline decided: g expires in this
// interaction's commit, as the sweep (Expire) would have, and the answer is
// the board with the result. The sweep runs every half minute, so it may
// come later; the result must not depend on when it does. The time that
// counts is when nimbot handles the action (r.now, the time its writes
// carry), as for the sweep, not when the interaction was made (its
// snowflake): a click delivered late (a gateway resume) would otherwise undo
// a result the sweep may already have shown on the board.
func (s *Service) expireNow(r *request, g *match.Game, t discordgo.InteractionResponseType) (*answer, error) {
	b, err := s.boardOf(r, g, false)
	if err != nil {
		return nil, err
	}
	return s.expireOn(r, b, t)
}

// expireOn is expireNow on a board already loaded (a move's).
func (s *Service) expireOn(r *request, b *match.Board, t discordgo.InteractionResponseType) (*answer, error) {
	next, err := b.Game.Expire()
	if err != nil {
		return nil, err
	}
	return s.commitBoard(r, b, next, nil, t)
}

// status posts the channel's board again, as a new message that becomes the
// board (BoardSent records it).
func (s *Service) status(r *request) (*answer, error) {
	g, err := s.channelGame(r)
	if err != nil {
		return nil, err
	}
	b, err := s.loadBoard(r, g)
	if err != nil {
		return nil, err
	}
	return unchanged(b.response(discordgo.InteractionResponseChannelMessageWithSource)), nil
}

// modal is a one-field modal.
func modal(customID, title, label, placeholder string, maxLen int) *discordgo.InteractionResponse {
	return &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseModal,
		Data: &discordgo.InteractionResponseData{
			CustomID: customID,
			Title:    truncate(title, 45),
			Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.TextInput{CustomID: "value", Label: truncate(label, 45), Style: discordgo.TextInputShort,
					Placeholder: truncate(placeholder, 100), Required: true, MinLength: 1, MaxLength: maxLen},
			}}},
		},
	}
}

// modalValue is the first text input's value of a modal submit.
func modalValue(i *discordgo.Interaction) string {
	for _, c := range i.ModalSubmitData().Components {
		row, ok := c.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, cc := range row.Components {
			if ti, ok := cc.(*discordgo.TextInput); ok {
				return ti.Value
			}
		}
	}
	return ""
}
