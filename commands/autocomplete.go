package commands

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"nimbot/engine"
)

// choices builds an autocomplete answer from (name, value) pairs, keeping
// those that start with or contain what was typed, at most 25.
func choices(typed string, pairs [][2]string) *discordgo.InteractionResponse {
	typed = strings.ToLower(strings.TrimSpace(typed))
	var out []*discordgo.ApplicationCommandOptionChoice
	seen := map[string]bool{}
	for _, p := range pairs {
		if len(out) == maxChoices {
			break
		}
		if seen[p[1]] || p[1] == "" {
			continue
		}
		if typed != "" && !strings.Contains(strings.ToLower(p[0]), typed) && !strings.Contains(strings.ToLower(p[1]), typed) {
			continue
		}
		seen[p[1]] = true
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: truncate(p[0], 100), Value: truncate(p[1], 100)})
	}
	return autocompleteResponse(out)
}

// autocompleteStart suggests heaps that suit the chosen variant.
func (s *Service) autocompleteStart(r *request) (*discordgo.InteractionResponse, error) {
	o := subOptions(r.i)
	field, typed := o.focused()
	if field != optHeaps {
		return autocompleteResponse(nil), nil
	}
	v := engine.Variant(o.str(optVariant))
	var pairs [][2]string
	if t := strings.TrimSpace(typed); t != "" {
		if heaps, err := engine.ParseHeaps(t); err == nil {
			pairs = append(pairs, [2]string{r.t("auto.heaps", "Heaps", t, "Count", len(heaps)), t})
		}
	}
	d, ok := engine.Describe(v)
	if !ok {
		d, _ = engine.Describe(defaultVariant)
	}
	sugg := d.HeapExamples
	for _, x := range sugg {
		label := x
		if strings.HasPrefix(x, "random") {
			label = r.t("auto.random", "Example", x)
		}
		pairs = append(pairs, [2]string{label, x})
	}
	return choices(typed, pairs), nil
}

// autocompleteMove suggests heaps and legal moves of the channel's game, to
// the player whose turn it is.
func (s *Service) autocompleteMove(r *request) (*discordgo.InteractionResponse, error) {
	o := subOptions(r.i)
	field, typed := o.focused()
	g, err := s.db.ChannelGame(r.ctx, r.origin.channel)
	if err != nil || !r.origin.holds(g) || checkTurn(g, r.userID()) != nil {
		return autocompleteResponse(nil), nil
	}
	var pairs [][2]string
	switch field {
	case optHeap:
		for i, h := range g.Position.Heaps {
			if hasMove(g.Rules, g.Position, i) {
				pairs = append(pairs, [2]string{fmt.Sprintf("%s (%d)", engine.HeapLabel(i), h), engine.HeapLabel(i)})
			}
		}
	case optNotation:
		d, _ := engine.Describe(g.Rules.Variant)
		for i := range g.Position.Heaps {
			moves, _ := heapMoves(g.Rules, g.Position, i)
			if d.Has(engine.Split) {
				split, _ := splitMoves(g.Rules, g.Position, i)
				moves = append(moves, split...)
			}
			for _, m := range moves {
				pairs = append(pairs, [2]string{g.Rules.FormatMove(g.Position, m) + " — " + r.lang.Phrase(g.Rules.DescribeMove(g.Position, m)), g.Rules.FormatMove(g.Position, m)})
			}
		}
		if d.Has(engine.Diagonal) {
			moves, _ := diagonalMoves(g.Rules, g.Position)
			for _, m := range moves {
				pairs = append(pairs, [2]string{g.Rules.FormatMove(g.Position, m) + " — " + r.lang.Phrase(g.Rules.DescribeMove(g.Position, m)), g.Rules.FormatMove(g.Position, m)})
			}
		}
		if t := strings.TrimSpace(typed); t != "" {
			if m, err := g.Rules.ParseMove(g.Position, t); err == nil {
				if g.Rules.Validate(g.Position, m) == nil {
					pairs = append([][2]string{{t + " — " + r.lang.Phrase(g.Rules.DescribeMove(g.Position, m)), t}}, pairs...)
				}
			}
		}
	}
	return choices(typed, pairs), nil
}

// autocompleteAnalyze suggests positions in the notation /nim analyze reads.
func (s *Service) autocompleteAnalyze(r *request) (*discordgo.InteractionResponse, error) {
	_, typed := subOptions(r.i).focused()
	var pairs [][2]string
	if t := strings.TrimSpace(typed); t != "" {
		if rules, pos, err := engine.ParseGame(t); err == nil {
			pairs = append(pairs, [2]string{r.t("auto.position", "Game", rules.NamePhrase(), "Position", engine.FormatGame(rules, pos)), t})
		}
	}
	for _, d := range engine.Descriptions() {
		for _, x := range d.Examples {
			pairs = append(pairs, [2]string{x, x})
		}
	}
	return choices(typed, pairs), nil
}
