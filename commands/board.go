package commands

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands/locale"
	"nimbot/engine"
	"nimbot/match"
)

// Board limits: what one message can show and control. Discord allows five
// rows of components and 25 options per select menu, and 4096 characters in
// an embed's description (RichEmbed.description in Discord's OpenAPI schema).
const (
	maxBoardHeaps = 12   // heaps a game may start with: heap buttons up to 5, a heap menu beyond
	maxBoardHeap  = 9999 // keeps the heap rows aligned; the engine's Limits are usually tighter
	maxStones     = 24   // stones drawn per row before "…"
	logLines      = 5    // moves shown under the board
	maxChoices    = 25   // Discord's select-menu and autocomplete limit
	maxLogLine    = 160  // characters of one move-log line (Moore's moves name many heaps)
	descLimit     = 4096 // Discord's limit on an embed description
	heapPageSize  = 23   // heaps per page of the heap menu: 25 options less ◀ and ▶
	compactWidth  = 40   // characters per line of the compact heap list
)

// manyHeapsNote tells players of the variants whose heaps multiply how a
// board shows more heaps than one message holds (see heapRows and heapMenu).
func manyHeapsNote(lp *locale.Printer) string {
	return lp.T("board.many_heaps", "Start", maxBoardHeaps, "Menu", maxChoices, "Log", logLines)
}

// Embed colours.
const (
	colourActive   = 0x5865F2
	colourPending  = 0xFEE75C
	colourFinished = 0x57F287
	colourEnded    = 0x99AAB5
)

// board is what one board message shows: the game, its moves so far, the
// heap the player to move has picked (-1: none yet) and, when the heaps need
// more than one page of the heap menu, the page shown (the picked heap's
// page when there is one). ping is set only on the board that delivers a
// new challenge.
type board struct {
	g        *match.Game
	moves    []match.Move
	selected int
	page     int
	ping     bool
}

// p is the printer the board is drawn with. A board is public, so it speaks
// the game's language (the challenger's, set at /nim start), whoever clicks.
func (b board) p() *locale.Printer { return locale.For(b.g.Locale) }

// name is how a message writes a player: a mention, nimbot itself, or
// (no player yet) the catalog's word for no one, in the reader's language
// (a phrase argument is rendered in the language of the message it is
// part of).
func name(id string) engine.Phrase {
	if id == match.BotID {
		return engine.Lit("nimbot")
	}
	if id == "" {
		return msg("player.nobody")
	}
	if id == match.Tombstone {
		// A forgotten player's seat: no one to mention.
		return engine.Lit("*" + match.Tombstone + "*")
	}
	return engine.Lit("<@" + id + ">")
}

// other returns the player of g who is not id.
// hintsAllowed: always against nimbot, per the game's setting between people.
func hintsAllowed(g *match.Game) bool { return g.VsBot() || g.Hints }

// convention says in words who wins.
func convention(lp *locale.Printer, r engine.Rules) string {
	if describe(r.Variant).Counting {
		t := normalized(r).Target
		if r.Misere {
			return lp.T("board.convention.count_misere", "Target", t)
		}
		return lp.T("board.convention.count", "Target", t)
	}
	if r.Misere {
		return lp.T("board.convention.misere")
	}
	return lp.T("board.convention.normal")
}

// heapRows draws the position as labelled rows of the variant's pieces
// (stones, pins), or the count in a counting game, in at most budget
// characters. One row per heap while that fits; beyond, a compact list of
// the heaps that are not empty (runs of equal heaps written once), and when
// even that does not fit, as many as fit and a last line saying how many
// more there are. It never cuts a line and always closes its code block.
func heapRows(lp *locale.Printer, r engine.Rules, p engine.Position, budget int) string {
	d := describe(r.Variant)
	if d.Counting {
		n := normalized(r)
		t, k := int64(n.Target), n.K
		var h int64
		if len(p.Heaps) > 0 {
			h = p.Heaps[0]
		}
		return lp.T("board.count", "Said", t-h, "Target", t, "Left", h, "Most", k)
	}
	after := ""
	if d.Limit {
		after = "\n" + lp.T("board.limit", "Limit", p.Limit)
	}
	budget -= discordLen(after)
	if full, ok := fullRows(lp, d, p, budget); ok {
		return full + after
	}
	return compactRows(lp, d, p, budget) + after
}

// pieceCount says n of the variant's pieces ("3 stones", "1 pin").
func pieceCount(lp *locale.Printer, d *engine.Description, n int64) string {
	return lp.T("board.pieces."+d.Piece, "Count", n)
}

// heapCount says n of the variant's heaps ("3 heaps", "1 row").
func heapCount(lp *locale.Printer, d *engine.Description, n int) string {
	return lp.T("board.heaps."+d.Heap, "Count", n)
}

// fullRows draws one row of pieces per heap, if that fits in budget.
func fullRows(lp *locale.Printer, d *engine.Description, p engine.Position, budget int) (string, bool) {
	// Stones are the usual piece and go unnamed; others say what they are.
	stone := d.Glyph
	var b strings.Builder
	b.WriteString("```\n")
	for i, h := range p.Heaps {
		row := "·"
		if h > 0 {
			row = strings.Repeat(stone, int(min(h, maxStones)))
			if h > maxStones {
				row += "…"
			}
		}
		size := lp.Number(h)
		if d.Piece != "stone" {
			size = pieceCount(lp, d, h)
		}
		// The label padded to two characters, the row, the size.
		fmt.Fprintf(&b, "%-2s│ %s %s\n", engine.HeapLabel(i), row, size)
		if b.Len() > 4*budget {
			return "", false // far over, whatever the characters' widths
		}
	}
	b.WriteString("```")
	return b.String(), discordLen(b.String()) <= budget
}

// compactRows lists the heaps that are not empty as "label size", a run of
// three or more equal heaps as "C–K 1 each", in lines of about compactWidth
// characters, within budget.
func compactRows(lp *locale.Printer, d *engine.Description, p engine.Position, budget int) string {
	var total int64
	empty := 0
	for _, h := range p.Heaps {
		total += h
		if h == 0 {
			empty++
		}
	}
	head := lp.T("board.compact.all", "Heaps", heapCount(lp, d, len(p.Heaps)), "Pieces", pieceCount(lp, d, total))
	if empty > 0 {
		head += " " + lp.T("board.compact.empty."+d.Heap, "Count", empty)
	}
	head += "\n"
	var entries []string
	var entryEnd []int // the heap index after each entry
	for i := 0; i < len(p.Heaps); {
		h := p.Heaps[i]
		j := i + 1
		for j < len(p.Heaps) && p.Heaps[j] == h {
			j++
		}
		switch {
		case h == 0:
			i = j
			continue
		case j-i >= 3:
			entries = append(entries, lp.T("board.compact.each."+d.Heap, "From", engine.HeapLabel(i), "To", engine.HeapLabel(j-1), "Size", h))
		default:
			j = i + 1
			entries = append(entries, engine.HeapLabel(i)+" "+lp.Number(h))
		}
		entryEnd = append(entryEnd, j)
		i = j
	}
	// The last line, when not every entry fits, is at most this long.
	const tailRoom = 120
	var b strings.Builder
	b.WriteString(head)
	b.WriteString("```\n")
	used := discordLen(head) + len("```\n") + len("```")
	line := ""
	shown := 0
	for k, e := range entries {
		extend := line != "" && discordLen(line)+2+discordLen(e) <= compactWidth
		need := used + discordLen(e) + 1
		switch {
		case extend:
			need += discordLen(line) + 2
		case line != "":
			need += discordLen(line) + 1
		}
		if k < len(entries)-1 {
			need += tailRoom
		}
		if need > budget {
			break
		}
		switch {
		case extend:
			line += "  " + e
		default:
			if line != "" {
				b.WriteString(line + "\n")
				used += discordLen(line) + 1
			}
			line = e
		}
		shown = k + 1
	}
	if line != "" {
		b.WriteString(line + "\n")
	}
	if shown < len(entries) {
		from := 0
		if shown > 0 {
			from = entryEnd[shown-1]
		}
		var rest int64
		n := 0
		for _, h := range p.Heaps[from:] {
			if h > 0 {
				rest += h
				n++
			}
		}
		b.WriteString(lp.T("board.compact.more", "Heaps", heapCount(lp, d, n), "From", engine.HeapLabel(from), "To", engine.HeapLabel(len(p.Heaps)-1), "Pieces", pieceCount(lp, d, rest)) + "\n")
	}
	b.WriteString("```")
	return b.String()
}

// discordLen counts characters as Discord's limits do: UTF-16 code units,
// so an emoji outside the BMP counts twice.
func discordLen(s string) int {
	n := 0
	for _, c := range s {
		n++
		if c >= 0x10000 {
			n++
		}
	}
	return n
}

// moveLog writes the last logLines moves, each described in the position it
// was played in (so the game is replayed from the start), and says how many
// earlier moves it leaves out.
func moveLog(lp *locale.Printer, g *match.Game, moves []match.Move) (lines []string, earlier int) {
	// Replayed in one copy of the start, move by move in place (ApplyTo):
	// a copy per move was most of a long game's board.
	p, owned := g.Start, false
	earlier = max(0, len(moves)-logLines)
	lines = make([]string, 0, len(moves)-earlier)
	for k, m := range moves {
		if k >= earlier {
			// The move's number labels the line, like a list's, and is
			// written as is.
			id := "board.log.move"
			if m.Hinted {
				id = "board.log.move_hinted"
			}
			lines = append(lines, lp.T(id, "N", strconv.Itoa(m.Ply+1), "Player", lp.Phrase(name(m.Player)), "Move", truncate(lp.Phrase(g.Rules.DescribeMove(p, m.Move)), maxLogLine)))
		}
		if k < len(moves)-1 {
			if !owned {
				p, owned = engine.Position{Heaps: slices.Clone(p.Heaps), Limit: p.Limit}, true
			}
			// An illegal move (none is stored) leaves p as it was.
			_ = g.Rules.ApplyTo(&p, m.Move)
		}
	}
	return lines, earlier
}

// result says how a finished game ended.
func result(lp *locale.Printer, g *match.Game) string {
	switch g.Status {
	case match.Won:
		return lp.T("board.result.won", "Winner", name(g.Winner))
	case match.Resigned:
		return lp.T("board.result.resigned", "Loser", name(g.Opponent(g.Winner)), "Winner", name(g.Winner))
	case match.Timeout:
		return lp.T("board.result.timeout", "Loser", name(g.Opponent(g.Winner)), "Winner", name(g.Winner))
	case match.Abandoned:
		return lp.T("board.result.abandoned")
	case match.Ended:
		return lp.T("board.result.ended")
	case match.Declined:
		return lp.T("board.result.declined", "Player", name(g.Opponent(g.CreatedBy)))
	case match.Expired:
		return lp.T("board.result.expired", "Player", name(g.Opponent(g.CreatedBy)))
	}
	return string(g.Status)
}

// timestamp is Discord's relative time markup ("<t:1767268800:R>").
func timestamp(t time.Time) string { return "<t:" + strconv.FormatInt(t.Unix(), 10) + ":R>" }

// embed renders the board's embed. Its description is built to fit
// Discord's limit whole: the players, the heaps, whose turn it is and the
// last moves, with the heaps drawn in whatever room the rest leaves.
func (b board) embed() *discordgo.MessageEmbed {
	g, lp := b.g, b.p()
	head := lp.T("board.players", "First", lp.Phrase(name(g.Players[0])), "Second", lp.Phrase(name(g.Players[1]))) + " · " + convention(lp, g.Rules)
	var status []string
	colour := colourActive
	switch {
	case g.Status == match.Pending:
		colour = colourPending
		challenged := g.Opponent(g.CreatedBy)
		status = append(status, lp.T("board.pending", "Challenger", name(g.CreatedBy), "Challenged", name(challenged), "First", name(g.Players[0])))
		if !g.Deadline.IsZero() {
			status = append(status, lp.T("board.pending.deadline", "Challenged", name(challenged), "When", timestamp(g.Deadline)))
		}
		if !g.Hints {
			status = append(status, lp.T("board.pending.no_hints"))
		}
	case g.Status.Finished():
		colour = colourFinished
		if g.Winner == "" {
			colour = colourEnded
		}
		status = append(status, "**"+result(lp, g)+"**")
	default:
		status = append(status, lp.T("board.turn", "Player", lp.Phrase(name(g.ToMove()))))
		if !g.Deadline.IsZero() {
			status = append(status, lp.T("board.turn.deadline", "When", timestamp(g.Deadline)))
			if g.InteractionOnly {
				// No member of the channel: see install.go.
				status = append(status, lp.T("install.deadline_next_click"))
			}
		}
	}
	log := ""
	if lines, earlier := moveLog(lp, g, b.moves); len(lines) > 0 {
		// The title, the count of earlier moves and the lines.
		parts := []string{lp.T("board.log.title")}
		if earlier > 0 {
			parts = append(parts, lp.T("board.log.earlier", "Count", earlier))
		}
		log = strings.Join(append(parts, lines...), "\n")
	}
	st := strings.Join(status, " ")
	// Three line breaks join the four parts.
	room := descLimit - discordLen(head) - discordLen(st) - discordLen(log) - 3
	rows := heapRows(lp, g.Rules, g.Position, room)
	parts := []string{head, rows, st}
	if log != "" {
		parts = append(parts, log)
	}
	return &discordgo.MessageEmbed{
		Title:       truncate(lp.Phrase(g.Rules.NamePhrase()), 256),
		Description: strings.Join(parts, "\n"),
		Color:       colour,
		// The game's number is an id, written as is (never 1.234).
		Footer: &discordgo.MessageEmbedFooter{Text: lp.T("board.footer", "Game", strconv.FormatInt(g.ID, 10), "Move", g.Ply+1)},
	}
}

// components renders the board's controls: for a challenge, Accept and
// Decline; for a game in play, heap picks, amounts, the variant's other
// moves, Hint, Type a move and Resign; for a finished game, the heaps
// disabled, Rematch and Review.
func (b board) components() []discordgo.MessageComponent {
	g, lp := b.g, b.p()
	switch {
	case g.Status == match.Pending:
		return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: lp.T("control.accept"), Style: discordgo.SuccessButton, CustomID: AcceptControl{Game: g.ID}.CustomID()},
			discordgo.Button{Label: lp.T("control.decline"), Style: discordgo.DangerButton, CustomID: DeclineControl{Game: g.ID}.CustomID()},
		}}}
	case g.Status.Finished():
		if g.Status == match.Declined || g.Status == match.Expired {
			return []discordgo.MessageComponent{}
		}
		var rows []discordgo.MessageComponent
		if len(g.Position.Heaps) > 1 && len(g.Position.Heaps) <= 5 {
			var btns []discordgo.MessageComponent
			for i, h := range g.Position.Heaps {
				btns = append(btns, discordgo.Button{Label: heapButtonLabel(lp, i, h), Style: discordgo.SecondaryButton, Disabled: true, CustomID: HeapControl{Game: g.ID, Ply: g.Ply, Heap: i}.CustomID()})
			}
			rows = append(rows, discordgo.ActionsRow{Components: btns})
		}
		end := []discordgo.MessageComponent{
			discordgo.Button{Label: lp.T("control.rematch"), Emoji: &discordgo.ComponentEmoji{Name: "🔁"}, Style: discordgo.PrimaryButton, CustomID: RematchControl{Game: g.ID}.CustomID()},
		}
		if len(b.moves) > 0 {
			end = append(end, discordgo.Button{Label: lp.T("control.review"), Emoji: &discordgo.ComponentEmoji{Name: "🔎"}, Style: discordgo.SecondaryButton, CustomID: ReviewControl{Game: g.ID}.CustomID()})
		}
		return append(rows, discordgo.ActionsRow{Components: end})
	}
	return b.playControls()
}

func heapButtonLabel(lp *locale.Printer, i int, h int64) string {
	return engine.HeapLabel(i) + " · " + lp.Number(h)
}

// playControls are the controls of a game in play.
func (b board) playControls() []discordgo.MessageComponent {
	g, lp := b.g, b.p()
	r, p := g.Rules, g.Position
	rows := make([]discordgo.MessageComponent, 0, 5) // Discord's most
	heap := b.selected
	if len(p.Heaps) == 1 {
		heap = 0
	} else {
		// The heap picker.
		if len(p.Heaps) <= 5 {
			btns := make([]discordgo.MessageComponent, 0, len(p.Heaps))
			for i, h := range p.Heaps {
				style := discordgo.SecondaryButton
				if i == heap {
					style = discordgo.PrimaryButton
				}
				btns = append(btns, discordgo.Button{Label: heapButtonLabel(lp, i, h), Style: style,
					Disabled: !hasMove(r, p, i), CustomID: HeapControl{Game: g.ID, Ply: g.Ply, Heap: i}.CustomID()})
			}
			rows = append(rows, discordgo.ActionsRow{Components: btns})
		} else if menu := b.heapMenu(); menu != nil {
			rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{menu}})
		}
	}
	if heap >= 0 && heap < len(p.Heaps) {
		if row := amountRow(lp, g, heap); row != nil {
			rows = append(rows, row)
		}
	}
	if row := extraRow(lp, g, heap); row != nil {
		rows = append(rows, row)
	}
	ctl := make([]discordgo.MessageComponent, 0, 3)
	if hintsAllowed(g) {
		ctl = append(ctl, discordgo.Button{Label: lp.T("control.hint"), Emoji: &discordgo.ComponentEmoji{Name: "💡"}, Style: discordgo.SecondaryButton, CustomID: HintControl{Game: g.ID, Ply: g.Ply}.CustomID()})
	}
	ctl = append(ctl,
		discordgo.Button{Label: lp.T("control.type"), Emoji: &discordgo.ComponentEmoji{Name: "⌨️"}, Style: discordgo.SecondaryButton, CustomID: TypeControl{Game: g.ID, Ply: g.Ply}.CustomID()},
		discordgo.Button{Label: lp.T("control.resign"), Emoji: &discordgo.ComponentEmoji{Name: "🏳️"}, Style: discordgo.DangerButton, CustomID: ResignControl{Game: g.ID, Ply: g.Ply}.CustomID()},
	)
	rows = append(rows, discordgo.ActionsRow{Components: ctl})
	if len(p.Heaps) > 1 {
		// Every move in one menu when they fit: one click, one request, one
		// transaction per move, beside the two-step heap picker (a single
		// heap's amounts are one click already). It comes last so the
		// controls above keep their places.
		if moves, ok := oneClickMoves(r, p); ok {
			rows = append(rows, moveSelect(lp, g, oneClickSlot, lp.T("control.one_click"), moves))
		}
	}
	return rows
}

// heapPages lists the heaps that are not empty and how many pages of the
// heap menu they take: one menu holds 25, and beyond that each page holds
// heapPageSize and the ◀ and ▶ options that turn the page. Only Lasker's and
// Kayles' heaps multiply past one menu (a split or a knock adds a heap).
func heapPages(p engine.Position) (heaps []int, pages int) {
	for i, h := range p.Heaps {
		if h > 0 {
			heaps = append(heaps, i)
		}
	}
	if len(heaps) <= maxChoices {
		return heaps, 1
	}
	return heaps, (len(heaps) + heapPageSize - 1) / heapPageSize
}

// heapMenu is the heap picker for more heaps than buttons hold: a select
// menu of the heaps that can move on the page shown, with options to turn
// the page (values "page:N"; heap options' values are the heap index). Its
// custom_id names the game and ply like every other control, so a page
// turned on a stale board is refused like a stale move.
func (b board) heapMenu() discordgo.MessageComponent {
	g, lp := b.g, b.p()
	r, p := g.Rules, g.Position
	heaps, pages := heapPages(p)
	page := min(max(b.page, 0), pages-1)
	if b.selected >= 0 {
		for k, i := range heaps {
			if i == b.selected && pages > 1 {
				page = k / heapPageSize
			}
		}
	}
	shown := heaps
	if pages > 1 {
		shown = heaps[page*heapPageSize : min(len(heaps), (page+1)*heapPageSize)]
	}
	// span names the first and last heap of page pg.
	span := func(pg int) (from, to string) {
		first := heaps[pg*heapPageSize]
		last := heaps[min(len(heaps), (pg+1)*heapPageSize)-1]
		return engine.HeapLabel(first), engine.HeapLabel(last)
	}
	var opts []discordgo.SelectMenuOption
	if pages > 1 && page > 0 {
		from, to := span(page - 1)
		opts = append(opts, discordgo.SelectMenuOption{Label: lp.T("control.heaps.back", "From", from, "To", to), Value: fmt.Sprintf("page:%d", page-1),
			Description: lp.T("control.heaps.page", "Page", page, "Pages", pages)})
	}
	for _, i := range shown {
		if !hasMove(r, p, i) {
			continue
		}
		h := p.Heaps[i]
		opts = append(opts, discordgo.SelectMenuOption{Label: heapButtonLabel(lp, i, h), Value: strconv.Itoa(i), Default: i == b.selected,
			Description: lp.T("control.heaps.option", "Heap", engine.HeapLabel(i), "Left", h)})
	}
	if pages > 1 && page < pages-1 {
		from, to := span(page + 1)
		opts = append(opts, discordgo.SelectMenuOption{Label: lp.T("control.heaps.next", "From", from, "To", to), Value: fmt.Sprintf("page:%d", page+1),
			Description: lp.T("control.heaps.page", "Page", page+2, "Pages", pages)})
	}
	if len(opts) == 0 {
		return nil
	}
	placeholder := lp.T("control.heaps.pick")
	if pages > 1 {
		from, to := span(page)
		placeholder = lp.T("control.heaps.pick_page", "From", from, "To", to, "Page", page+1, "Pages", pages)
	}
	return discordgo.SelectMenu{CustomID: HeapMenuControl{Game: g.ID, Ply: g.Ply}.CustomID(), Placeholder: placeholder, Options: opts}
}

// amountRow offers the single-heap moves of heap i: buttons for up to five,
// a select menu for up to 25, else a button that opens a modal for the number.
func amountRow(lp *locale.Printer, g *match.Game, i int) discordgo.MessageComponent {
	r, p := g.Rules, g.Position
	moves, more := heapMoves(r, p, i)
	if len(moves) == 0 {
		return nil
	}
	if more {
		return discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: lp.T("control.ask", "Heap", engine.HeapLabel(i)), Emoji: &discordgo.ComponentEmoji{Name: "🔢"}, Style: discordgo.PrimaryButton, CustomID: AskControl{Game: g.ID, Ply: g.Ply, Heap: i}.CustomID()},
		}}
	}
	allTakes := true
	for _, m := range moves {
		allTakes = allTakes && m.Kind == engine.Take
	}
	if allTakes && len(moves) <= 5 {
		var btns []discordgo.MessageComponent
		for _, m := range moves {
			label := lp.T("control.take", "N", m.Take)
			if describe(r.Variant).Counting {
				label = lp.T("control.say", "N", m.Take)
			}
			btns = append(btns, discordgo.Button{Label: label, Style: discordgo.PrimaryButton, CustomID: MoveControl{Game: g.ID, Ply: g.Ply, Heap: i, Take: m.Take}.CustomID()})
		}
		return discordgo.ActionsRow{Components: btns}
	}
	return moveSelect(lp, g, "a", lp.T("control.pick_move", "Heap", engine.HeapLabel(i)), moves)
}

// extraRow offers the moves that are not one heap's takes: diagonal moves
// (Wythoff), splits of the picked heap (Lasker), moves on several heaps
// (Moore).
func extraRow(lp *locale.Printer, g *match.Game, heap int) discordgo.MessageComponent {
	r, p := g.Rules, g.Position
	d := describe(r.Variant)
	switch {
	case d.Has(engine.Diagonal):
		moves, more := diagonalMoves(r, p)
		if len(moves) == 0 {
			return nil
		}
		if more {
			return typeButtonRow(g, lp.T("control.diagonal.type"))
		}
		return moveSelect(lp, g, "x", lp.T("control.diagonal.pick"), moves)
	case d.Has(engine.Split):
		if heap < 0 || heap >= len(p.Heaps) {
			return nil
		}
		moves, more := splitMoves(r, p, heap)
		if len(moves) == 0 {
			return nil
		}
		if more {
			return typeButtonRow(g, lp.T("control.split.type", "Heap", engine.HeapLabel(heap)))
		}
		return moveSelect(lp, g, "x", lp.T("control.split.pick", "Heap", engine.HeapLabel(heap)), moves)
	case d.Has(engine.Multi):
		return typeButtonRow(g, lp.T("control.multi.type"))
	}
	return nil
}

func typeButtonRow(g *match.Game, label string) discordgo.MessageComponent {
	return discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: label, Style: discordgo.PrimaryButton, CustomID: TypeControl{Game: g.ID, Ply: g.Ply, Slot: "x"}.CustomID()},
	}}
}

// moveSelect is a select menu whose values are moves in the engine's
// notation, so one handler plays every kind of move.
func moveSelect(lp *locale.Printer, g *match.Game, slot, placeholder string, moves []engine.Move) discordgo.MessageComponent {
	opts := make([]discordgo.SelectMenuOption, 0, len(moves))
	for _, m := range moves {
		notation := g.Rules.FormatMove(g.Position, m)
		opts = append(opts, discordgo.SelectMenuOption{
			Label:       truncate(lp.Phrase(g.Rules.DescribeMove(g.Position, m)), 100),
			Value:       notation,
			Description: truncate(lp.T("control.typed_as", "Move", notation), 100),
		})
	}
	return discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.SelectMenu{CustomID: MoveMenuControl{Game: g.ID, Ply: g.Ply, Slot: slot}.CustomID(), Placeholder: truncate(placeholder, 150), Options: opts},
	}}
}

// legalOnly keeps the candidates the engine accepts; it stops after
// maxChoices+1 so the caller knows there are more than a menu holds.
func legalOnly(r engine.Rules, p engine.Position, cands []engine.Move) ([]engine.Move, bool) {
	out := make([]engine.Move, 0, min(len(cands), maxChoices+1))
	for _, m := range cands {
		if r.Validate(p, m) == nil {
			out = append(out, m)
			if len(out) > maxChoices {
				return out[:maxChoices], true
			}
		}
	}
	return out, false
}

// heapMoves lists the moves within heap i alone (takes; pin knocks in
// Kayles). Candidates are built here and checked by the engine, rather than
// filtered from Legal, because Legal lists every multi-heap move too.
func heapMoves(r engine.Rules, p engine.Position, i int) ([]engine.Move, bool) {
	h := p.Heaps[i]
	var cands []engine.Move
	if describe(r.Variant).Has(engine.Knock) {
		for j := int64(1); j <= h && len(cands) < 4*maxChoices; j++ {
			cands = append(cands, engine.Move{Kind: engine.Knock, Heap: i, Take: 1, Parts: [2]int64{j - 1, h - j}})
			if j < h {
				cands = append(cands, engine.Move{Kind: engine.Knock, Heap: i, Take: 2, Parts: [2]int64{j - 1, h - j - 1}})
			}
		}
		moves, more := legalOnly(r, p, cands)
		return moves, more || 2*h-1 > int64(len(cands))
	}
	// One more than a menu holds is enough to know a menu will not do.
	takes := r.Takes(p, i, maxChoices+1)
	cands = make([]engine.Move, 0, len(takes))
	for _, t := range takes {
		cands = append(cands, engine.Move{Kind: engine.Take, Heap: i, Take: t})
	}
	if len(cands) > maxChoices {
		// Too many for a menu: the caller offers the number modal.
		return cands[:1], true
	}
	return legalOnly(r, p, cands)
}

func diagonalMoves(r engine.Rules, p engine.Position) ([]engine.Move, bool) {
	if len(p.Heaps) != 2 {
		return nil, false
	}
	n := min(p.Heaps[0], p.Heaps[1])
	if n > maxChoices {
		return []engine.Move{{Kind: engine.Diagonal, Take: 1}}, true
	}
	var cands []engine.Move
	for t := int64(1); t <= n; t++ {
		cands = append(cands, engine.Move{Kind: engine.Diagonal, Take: t})
	}
	return legalOnly(r, p, cands)
}

func splitMoves(r engine.Rules, p engine.Position, i int) ([]engine.Move, bool) {
	h := p.Heaps[i]
	if h/2 > maxChoices {
		return []engine.Move{{Kind: engine.Split, Heap: i, Parts: [2]int64{1, h - 1}}}, true
	}
	var cands []engine.Move
	for a := int64(1); a <= h/2; a++ {
		cands = append(cands, engine.Move{Kind: engine.Split, Heap: i, Parts: [2]int64{a, h - a}})
	}
	return legalOnly(r, p, cands)
}

// oneClickSlot is the slot of the play/{game}/{ply}/{slot} menu that lists
// every legal move of the position.
const oneClickSlot = "all"

// oneClickMoves lists every legal move of p when they all fit one select
// menu, so the board can offer each in one click; ok is false when they do
// not. It gives up early, without trying candidates: more heaps that are
// not empty than a menu holds, or moves on several heaps at once (Moore's
// Nim), which no short list covers.
func oneClickMoves(r engine.Rules, p engine.Position) (moves []engine.Move, ok bool) {
	d := describe(r.Variant)
	if d.Has(engine.Multi) {
		return nil, false
	}
	nonEmpty := 0
	for _, h := range p.Heaps {
		if h > 0 {
			nonEmpty++
		}
	}
	if nonEmpty > maxChoices {
		return nil, false
	}
	moves = make([]engine.Move, 0, maxChoices+1)
	add := func(ms []engine.Move, more bool) bool {
		moves = append(moves, ms...)
		return !more && len(moves) <= maxChoices
	}
	for i, h := range p.Heaps {
		if h == 0 {
			continue
		}
		if !add(heapMoves(r, p, i)) {
			return nil, false
		}
		if d.Has(engine.Split) && !add(splitMoves(r, p, i)) {
			return nil, false
		}
	}
	if d.Has(engine.Diagonal) && !add(diagonalMoves(r, p)) {
		return nil, false
	}
	return moves, len(moves) > 0
}

// hasMove reports whether heap i has any move of its own (Greedy Nim allows
// only the largest heaps; a subtraction set may leave a small heap stuck).
func hasMove(r engine.Rules, p engine.Position, i int) bool {
	h := p.Heaps[i]
	if h == 0 {
		return false
	}
	// The first legal candidate settles it: usually the first one tried,
	// which matters when a page of the heap menu asks for 23 heaps of a
	// position with thousands (each check scans the position).
	legal := func(m engine.Move) bool { return r.Validate(p, m) == nil }
	d := describe(r.Variant)
	if d.Has(engine.Knock) {
		return legal(engine.Move{Kind: engine.Knock, Heap: i, Take: 1, Parts: [2]int64{0, h - 1}})
	}
	for _, t := range r.Takes(p, i, maxChoices+1) {
		if legal(engine.Move{Kind: engine.Take, Heap: i, Take: t}) {
			return true
		}
	}
	return d.Has(engine.Split) && h >= 2 && legal(engine.Move{Kind: engine.Split, Heap: i, Parts: [2]int64{1, h - 1}})
}

// response renders the board as a response of type t: a new message for
// commands, UPDATE_MESSAGE for clicks on the board.
func (b board) response(t discordgo.InteractionResponseType) *discordgo.InteractionResponse {
	data := &discordgo.InteractionResponseData{
		Embeds:          []*discordgo.MessageEmbed{b.embed()},
		Components:      b.components(),
		AllowedMentions: noMentions(),
	}
	if b.g.Status == match.Pending {
		challenged := b.g.Opponent(b.g.CreatedBy)
		data.Content = b.p().T("board.challenge", "Challenged", name(challenged), "Game", b.g.Rules.NamePhrase())
		if b.ping {
			// The one ping nimbot sends, with the challenge itself: the
			// challenged player must notice. A pending board drawn again
			// (/nim status, which anyone in the channel may send) names
			// them without a ping, or anyone could ping them at will.
			data.AllowedMentions = &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}, Users: []string{challenged}}
		}
	}
	return &discordgo.InteractionResponse{Type: t, Data: data}
}

// edit renders the board as a REST message edit (for Expire).
func (b board) edit(channelID, messageID string) *discordgo.MessageEdit {
	embeds := []*discordgo.MessageEmbed{b.embed()}
	comps := b.components()
	content := ""
	return &discordgo.MessageEdit{
		ID: messageID, Channel: channelID,
		Content: &content, Embeds: &embeds, Components: &comps,
		AllowedMentions: noMentions(),
	}
}

// noMentions lets no mention in a message ping anyone: boards name players
// on every edit, and only a challenge should notify (its own allow-list).
// Parse is an empty list rather than null, which Discord reads the same way
// but is unambiguous.
func noMentions() *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}
}

// describe is the engine's description of v (the zero Description for a
// variant it does not offer, which no stored game has). It is shared: read
// only.
func describe(v engine.Variant) *engine.Description {
	if d, ok := descriptions[v]; ok {
		return d
	}
	return &engine.Description{}
}

// descriptions are the engine's descriptions of its variants, copied once:
// a board asks for them a dozen times, and engine.Describe copies every
// slice of one each time. Keyed by the engine's own variants.
var descriptions = func() map[engine.Variant]*engine.Description {
	m := map[engine.Variant]*engine.Description{}
	for _, v := range engine.Variants() {
		if d, ok := engine.Describe(v); ok {
			m[v] = &d
		}
	}
	return m
}()

// normalized is r with its defaults filled in; stored rules already are.
func normalized(r engine.Rules) engine.Rules {
	if n, err := r.Normalize(); err == nil {
		return n
	}
	return r
}
