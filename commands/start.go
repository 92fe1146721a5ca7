package commands

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/engine"
	"nimbot/match"
)

// start answers /nim start: a game against nimbot at once, or a challenge
// to the opponent named.
func (s *Service) start(r *request) (*answer, error) {
	o := subOptions(r.i)
	user := r.userID()
	rules, pos, err := s.startPosition(o)
	if err != nil {
		return nil, err
	}
	opponent, err := s.opponent(r, o)
	if err != nil {
		return nil, err
	}
	g := &match.Game{
		GuildID: r.origin.guild, ChannelID: r.origin.channel,
		Rules: rules, Start: pos, Position: pos,
		CreatedBy: user, Locale: gameLocale(r.i), InteractionOnly: interactionOnly(r),
	}
	first := o.str(optFirst)
	if first == "" {
		first = firstRandom
	}
	meFirst := first == firstMe
	if first == firstRandom {
		s.withRand(func(rng *rand.Rand) { meFirst = rng.IntN(2) == 0 })
	}
	g.Players = [2]string{user, opponent}
	if !meFirst {
		g.Players = [2]string{opponent, user}
	}
	if opponent == match.BotID {
		d := engine.Difficulty(o.str(optDifficulty))
		if d == "" {
			d = engine.Medium
		}
		if !validDifficulty(d) {
			return nil, userErr("start.err.difficulty", "Difficulty", quote(string(d), 20), "Choices", difficultyNames(r))
		}
		if o.has(optHints) && !o.bool(optHints) {
			return nil, userErr("start.err.hints_vs_bot", "HintsOption", optionName(optHints))
		}
		g.Difficulty, g.Hints, g.Status = d, true, match.Active
		g.TurnTimeout = s.cfg.BotTurn
		g.Deadline = r.now.Add(g.TurnTimeout)
	} else {
		if o.has(optDifficulty) {
			return nil, userErr("start.err.difficulty_vs_person")
		}
		g.Hints, g.Status = o.boolOr(optHints, true), match.Pending
		g.TurnTimeout = s.cfg.PeopleTurn
		g.Deadline = r.now.Add(s.cfg.ChallengeTTL)
	}
	return s.create(r, g)
}

func validDifficulty(d engine.Difficulty) bool {
	for _, x := range engine.Difficulties() {
		if x == d {
			return true
		}
	}
	return false
}

// create stores a new game and posts its board as a new message; against
// nimbot, when nimbot moves first, its opening move is made at once. The
// game, that move and the saved answer are one store transaction, so a
// redelivered start gets its board back whatever happened in between.
func (s *Service) create(r *request, g *match.Game) (*answer, error) {
	newMessage := discordgo.InteractionResponseChannelMessageWithSource
	var opening []engine.Move
	opts := []match.CreateOption{}
	if g.Status == match.Active && g.ToMove() == match.BotID {
		bm, next, err := s.botChoice(g, r.now)
		if err != nil {
			return nil, err
		}
		opening = []engine.Move{bm}
		opts = append(opts, match.FirstTurn(match.Change{
			Moves: opening, Position: next.Position,
			Status: next.Status, Winner: next.Winner, Deadline: next.Deadline,
		}))
	}
	if g.Status == match.Pending {
		// The challenge cooldown keeps one user from flooding a server with
		// challenges (by /nim start or rematch; games against nimbot do not
		// count). The store decides it in the transaction that creates the
		// game, so challenges sent at once in several channels cannot all
		// pass a look taken before.
		opts = append(opts, match.Cooldown(r.now.Add(-s.cfg.ChallengeCooldown)))
	}
	return s.answers.commit(r, 0, func(interactionID string, keep func(*discordgo.InteractionResponse) ([]byte, error)) (bool, error) {
		opts = append(opts, match.Respond(interactionID, func(created *match.Game) ([]byte, error) {
			return keep(board{g: created, moves: openingMoves(created, opening, r.now), selected: -1, ping: true}.response(newMessage))
		}))
		err := s.db.CreateGame(r.ctx, g, opts...)
		var busy *match.BusyError
		var cool *match.CooldownError
		switch {
		case errors.As(err, &busy):
			// The store's insert decides that the channel is busy, on
			// every instance at once, and hands back the game in the
			// way: no read of the channel's game goes before it.
			if err := atGame(r, busy.Game); err != nil {
				return false, err
			}
			return false, busyError(busy.Game)
		case errors.As(err, &cool):
			return false, s.cooldownRefusal(r, cool.Last)
		case errors.Is(err, match.ErrChannelBusy):
			return false, userErr("start.err.channel_busy", "StatusCommand", subName(subStatus), "EndCommand", subName(subEnd))
		case err != nil:
			return false, fmt.Errorf("create game: %w", err)
		}
		s.recent.keep(g, openingMoves(g, opening, r.now), false, r.now)
		return true, nil
	})
}

// openingMoves are the moves of g, just created, that opening made.
func openingMoves(g *match.Game, opening []engine.Move, now time.Time) []match.Move {
	var moves []match.Move
	for ply, m := range opening {
		moves = append(moves, match.Move{GameID: g.ID, Ply: ply, Player: g.Players[ply%2], Move: m, At: now})
	}
	return moves
}

// botChoice picks nimbot's move in g, where nimbot is to move, and returns
// it with the game after it.
func (s *Service) botChoice(g *match.Game, now time.Time) (engine.Move, *match.Game, error) {
	var bm engine.Move
	var cerr error
	s.withRand(func(rng *rand.Rand) { bm, cerr = g.Rules.Choose(g.Position, g.Difficulty, rng) })
	if cerr != nil {
		return bm, nil, fmt.Errorf("nimbot's move in game %d: %w", g.ID, cerr)
	}
	next, err := g.Play(bm, now, s.timing)
	if err != nil {
		return bm, nil, fmt.Errorf("nimbot's move %v in game %d: %w", bm, g.ID, err)
	}
	return bm, next, nil
}

// busyError points at the channel's game.
func busyError(g *match.Game) error {
	what := "game"
	if g.Status == match.Pending {
		what = "challenge"
	}
	if g.MessageID == "" {
		return userErr("start.err.busy."+what, "Game", strconv.FormatInt(g.ID, 10), "StatusCommand", subName(subStatus), "EndCommand", subName(subEnd))
	}
	return userErr("start.err.busy_link."+what, "Link", messageLink(g), "EndCommand", subName(subEnd))
}

// messageLink is the Discord link to a game's board.
func messageLink(g *match.Game) string {
	guild := g.GuildID
	if guild == "" {
		guild = "@me"
	}
	return fmt.Sprintf("https://discord.com/channels/%s/%s/%s", guild, g.ChannelID, g.MessageID)
}

// opponent returns the challenged user's id, or BotID.
func (s *Service) opponent(r *request, o options) (string, error) {
	id := o.str(optOpponent)
	if id == "" {
		return match.BotID, nil
	}
	if id == r.userID() {
		return "", userErr("start.err.self", "OpponentOption", optionName(optOpponent))
	}
	if id == r.i.AppID {
		return match.BotID, nil
	}
	if r.origin.kind == inBotDM {
		// A DM with nimbot holds the user and nimbot only; a group DM or a
		// DM between two people (context 2) is a channel both can see.
		return "", userErr("start.err.challenge_in_dm", "OpponentOption", optionName(optOpponent))
	}
	if d := r.i.ApplicationCommandData(); d.Resolved != nil {
		if u := d.Resolved.Users[id]; u != nil && u.Bot {
			return "", userErr("start.err.opponent_bot", "Player", name(id), "OpponentOption", optionName(optOpponent))
		}
	}
	return id, nil
}

// cooldownRefusal refuses a challenge made too soon after last, the
// user's newest, saying how long ago that was and how long to wait.
func (s *Service) cooldownRefusal(r *request, last *match.Game) error {
	wait := max(0, last.CreatedAt.Add(s.cfg.ChallengeCooldown).Sub(r.now))
	return userErr("start.err.cooldown", "Ago", duration(r.now.Sub(last.CreatedAt)), "Wait", duration(wait), "OpponentOption", optionName(optOpponent))
}

// duration words d, rounded to the second and at least one, as a message
// argument in the reader's language ("1 minute 30 seconds", "1 Minute 30
// Sekunden", "1分30秒"): each unit through the catalog's plural rules, not
// Go's "1m30s".
func duration(d time.Duration) engine.Phrase {
	d = max(d, time.Second).Round(time.Second)
	var parts []engine.Phrase
	for _, u := range []struct {
		id   string
		unit time.Duration
	}{{"duration.days", 24 * time.Hour}, {"duration.hours", time.Hour}, {"duration.minutes", time.Minute}, {"duration.seconds", time.Second}} {
		if n := int64(d / u.unit); n > 0 {
			parts = append(parts, msg(u.id, "Count", n))
			d -= time.Duration(n) * u.unit
		}
	}
	out := parts[0]
	for _, p := range parts[1:] {
		out = msg("duration.and", "A", out, "B", p)
	}
	return out
}

// startPosition reads the rules and the opening position from /nim start's
// options.
func (s *Service) startPosition(o options) (engine.Rules, engine.Position, error) {
	variant := engine.Variant(o.str(optVariant))
	if variant == "" {
		variant = defaultVariant
	}
	d, _ := engine.Describe(variant)
	rules := engine.Rules{Variant: variant, Misere: o.boolOr(optMisere, d.Misere)}
	for _, name := range engine.SettingNames() {
		if !o.has(name) {
			continue
		}
		var vals []int64
		if def := s.declared.option("start", name); def != nil && def.Type == discordgo.ApplicationCommandOptionString {
			text := strings.TrimSpace(o.str(name))
			if text == "" {
				continue
			}
			var err error
			if vals, err = engine.ParseHeaps(text); err != nil {
				return rules, engine.Position{}, userErr("start.err.setting_unreadable", "Setting", optionName(name), "Text", quote(text, 40))
			}
		} else {
			vals = []int64{o.int(name)}
		}
		var err error
		if rules, err = rules.With(name, vals...); err != nil {
			return rules, engine.Position{}, userErr("refusal.rules.invalid", "Reason", engineReason(err))
		}
	}
	rules, err := rules.Normalize()
	if err != nil {
		return rules, engine.Position{}, userErr("refusal.rules.invalid", "Reason", engineReason(err))
	}
	heaps, err := s.parseStartHeaps(rules, o.str(optHeaps))
	if err != nil {
		return rules, engine.Position{}, err
	}
	pos, err := rules.Start(heaps)
	if err == nil {
		// A game, unlike one analysed position, goes on: where moves add
		// heaps, it must not be able to grow past what can be played.
		err = rules.Playable(pos)
	}
	switch {
	case errors.Is(err, engine.ErrTooLarge):
		return rules, pos, userErr("refusal.start.too_large", "Reason", engineReason(err))
	case errors.Is(err, engine.ErrInvalid):
		return rules, pos, userErr("refusal.position.invalid", "Reason", engineReason(err))
	case err != nil:
		return rules, pos, fmt.Errorf("start position: %w", err)
	}
	if rules.Over(pos) {
		// Heaps that still hold something can allow no move (Fibonacci
		// on 1, a set's least amount above every heap): say why, since
		// "take at least one stone" would not help.
		if why, ok := rules.WhyNoMove(pos); ok {
			return rules, pos, userErr("start.err.no_legal_move", "Reason", escapePhrase(why))
		}
		return rules, pos, userErr("start.err.no_moves")
	}
	return rules, pos, nil
}

// defaultVariant is the game /nim start, rules and help mean when none is
// named.
const defaultVariant = engine.Nim

// defaultHeaps are the heaps a game starts with when none are given.
func defaultHeaps(v engine.Variant) []int64 {
	d, _ := engine.Describe(v)
	return d.DefaultHeaps
}

// parseStartHeaps reads the heaps option: sizes like "3 4 5", or "random"
// with an optional count.
func (s *Service) parseStartHeaps(rules engine.Rules, text string) ([]int64, error) {
	text = strings.TrimSpace(strings.ToLower(text))
	if text == "" {
		return defaultHeaps(rules.Variant), nil
	}
	if f := strings.Fields(text); f[0] == "random" {
		count := 3
		if len(f) > 2 {
			return nil, userErr("start.err.random_form", "Text", quote(text, 40))
		}
		if len(f) == 2 {
			n, err := strconv.Atoi(f[1])
			if err != nil || n < 1 {
				return nil, userErr("start.err.random_count", "Text", quote(f[1], 20))
			}
			count = n
		}
		return s.randomHeaps(rules, count)
	}
	// A number past maxBoardHeap is no heap of a board, so digits grouped
	// into one are only heaps ("100 200 300").
	heaps, err := engine.ParseHeapsUpTo(text, maxBoardHeap)
	if errors.Is(err, engine.ErrAmbiguous) {
		// "2 500" is written the way heaps are, so "write sizes separated
		// by spaces" would not help: the engine says how to write either
		// reading.
		return nil, userErr("start.err.heaps_ambiguous", "Text", quote(text, 40), "Reason", engineReason(err))
	}
	if err != nil {
		return nil, userErr("start.err.heaps_unreadable", "Text", quote(text, 40))
	}
	if len(heaps) > maxBoardHeaps {
		return nil, userErr("start.err.too_many_heaps", "N", len(heaps), "Max", maxBoardHeaps)
	}
	for i, h := range heaps {
		if h > maxBoardHeap {
			return nil, userErr("start.err.heap_too_big", "Heap", engine.HeapLabel(i), "Size", h, "Max", maxBoardHeap, "AnalyzeCommand", subName(subAnalyze))
		}
	}
	return heaps, nil
}

// randomHeaps draws count heaps the engine can play perfectly.
func (s *Service) randomHeaps(rules engine.Rules, count int) ([]int64, error) {
	d, _ := engine.Describe(rules.Variant)
	if d.Heaps > 0 {
		count = d.Heaps
	}
	if count > maxBoardHeaps {
		return nil, userErr("start.err.random_too_many", "N", count, "Max", maxBoardHeaps)
	}
	lim := rules.Limits()
	if lim.MaxHeaps > 0 && count > lim.MaxHeaps {
		return nil, userErr("start.err.random_max", "Game", rules.NamePhrase(), "Max", lim.MaxHeaps)
	}
	lo, top := d.RandomHeap[0], d.RandomHeap[1]
	if lim.MaxHeap > 0 {
		top = min(top, lim.MaxHeap)
	}
	if lim.MaxTotal > 0 {
		top = min(top, lim.MaxTotal/int64(count))
	}
	if top < 1 {
		return nil, userErr("start.err.random_impossible", "Game", rules.NamePhrase(), "N", count)
	}
	lo = min(lo, top)
	heaps := make([]int64, count)
	s.withRand(func(rng *rand.Rand) {
		if d.Counting {
			// The one number is the count said so far: somewhere in the
			// first half of the way to the target.
			heaps[0] = int64(rng.IntN(max(1, rules.Target/2)))
			return
		}
		for i := range heaps {
			heaps[i] = lo + rng.Int64N(top-lo+1)
		}
	})
	return heaps, nil
}

// accept starts a challenged game. A challenge answered, called off or
// expired between the read and the write is read again, and the answer says
// which (retryStale).
func (s *Service) accept(r *request, c AcceptControl) (*answer, error) {
	return retryStale(func() (*answer, error) { return s.acceptOnce(r, c) })
}

// acceptOnce is one attempt of accept.
func (s *Service) acceptOnce(r *request, c AcceptControl) (*answer, error) {
	g, err := s.challenge(r, c.Game)
	if err != nil {
		return nil, err
	}
	next, err := g.Accept(r.now, s.timing)
	if errors.Is(err, match.ErrOverdue) {
		return s.expireNow(r, g, discordgo.InteractionResponseUpdateMessage)
	}
	if err != nil {
		return nil, err
	}
	return s.commitTurn(r, g, next, discordgo.InteractionResponseUpdateMessage)
}

// decline turns a challenge down; like accept, it reads a challenge that
// changed under its write again (retryStale).
func (s *Service) decline(r *request, c DeclineControl) (*answer, error) {
	return retryStale(func() (*answer, error) { return s.declineOnce(r, c) })
}

// declineOnce is one attempt of decline.
func (s *Service) declineOnce(r *request, c DeclineControl) (*answer, error) {
	g, err := s.challenge(r, c.Game)
	if err != nil {
		return nil, err
	}
	next, err := g.Decline(r.now)
	if errors.Is(err, match.ErrOverdue) {
		return s.expireNow(r, g, discordgo.InteractionResponseUpdateMessage)
	}
	if err != nil {
		return nil, err
	}
	return s.commitTurn(r, g, next, discordgo.InteractionResponseUpdateMessage)
}

// challenge loads the pending game a button names and checks that the user
// is the one challenged.
func (s *Service) challenge(r *request, id int64) (*match.Game, error) {
	g, err := s.controlGame(r, id)
	if err != nil {
		return nil, err
	}
	challenged := g.Challenged()
	switch {
	case g.Status == match.Active:
		return nil, userErr("start.err.accepted")
	case g.Status.Finished():
		if err := s.settledBoard(r, g); err != nil {
			return nil, err
		}
		return nil, challengeOver(g.Status)
	case r.userID() == g.CreatedBy:
		return nil, userErr("start.err.own_challenge", "Challenged", name(challenged), "EndCommand", subName(subEnd))
	case r.userID() != challenged:
		return nil, userErr("start.err.not_challenged", "Challenged", name(challenged), "StartCommand", subName(subStart))
	}
	return g, nil
}

// rematch starts the same game again with the other player first: against
// nimbot at once, against a person as a new challenge.
func (s *Service) rematch(r *request, c RematchControl) (*answer, error) {
	g, err := s.controlGame(r, c.Game)
	if err != nil {
		return nil, err
	}
	n, err := g.Rematch(r.userID(), r.origin.guild, r.origin.channel, r.now, s.timing)
	switch {
	case errors.Is(err, match.ErrNotOver):
		return nil, userErr("start.err.rematch_not_over")
	case errors.Is(err, match.ErrNeverStarted):
		return nil, userErr("start.err.rematch_never_started", "StartCommand", subName(subStart))
	case errors.Is(err, match.ErrNotPlayer):
		return nil, userErr("start.err.rematch_not_player", "StartCommand", subName(subStart))
	case err != nil:
		return nil, err
	}
	if n.Players[0] == match.Tombstone || n.Players[1] == match.Tombstone {
		return nil, userErr("privacy.err.rematch_deleted", "StartCommand", subName(subStart))
	}
	// A rematch between people challenges the opponent like /nim start
	// does, and so waits out the same cooldown (create): rematch and /nim
	// end in turns would otherwise ping them as fast as they are clicked.
	return s.create(r, n)
}

// gameLocale is the language a new game's public messages speak: the
// challenger's Discord locale. The client sends it, so one that is not of a
// locale's shape (match.ValidLocale: too long, or a byte no locale has) is
// not kept (the game speaks English) rather than refused.
func gameLocale(i *discordgo.Interaction) string {
	if l := string(i.Locale); match.ValidLocale(l) {
		return l
	}
	return ""
}

// interactionOnly reports that nimbot is no member of r's channel, so it
// may only answer interactions there: a group DM or a DM between people
// (inPrivate), or a server that has not installed nimbot (its commands come
// through a member's user install: no guild install among the owners). A
// payload without owners is read as a server install, as before they
// existed. A DM with nimbot (inBotDM) is nimbot's own channel.
func interactionOnly(r *request) bool {
	i := r.i
	if r.origin.kind != inServer {
		return r.origin.kind == inPrivate
	}
	if len(i.AuthorizingIntegrationOwners) == 0 {
		return false
	}
	_, installed := i.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationGuildInstall]
	return !installed
}

// challengeOver refuses a click on a challenge that ended unanswered:
// declined, expired or called off with /nim end.
func challengeOver(st match.Status) error {
	switch st {
	case match.Declined, match.Expired:
		return userErr("start.err.challenge_over."+string(st), "StartCommand", subName(subStart))
	}
	return userErr("start.err.challenge_over.ended", "StartCommand", subName(subStart))
}

// difficultyNames lists the difficulties as the user's /nim start menu
// names them ("easy, medium, hard, perfect").
func difficultyNames(r *request) string {
	var names []string
	for _, d := range engine.Difficulties() {
		names = append(names, r.t("choice.difficulty."+string(d)))
	}
	return strings.Join(names, ", ")
}

// optionName is an option's name as the user's Discord shows it (the
// catalog's opt.<name>.name), for messages that point at the option: a
// phrase, rendered in whichever language the message is shown in.
func optionName(opt string) engine.Phrase { return engine.P("opt." + opt + ".name") }

// subName is a subcommand's name as the user's Discord shows it (the
// catalog's nim.<sub>.name), for messages that tell the user which command
// to send ("/nim {{.StartCommand}}"): a phrase, as optionName.
func subName(sub string) engine.Phrase { return engine.P("nim." + sub + ".name") }
