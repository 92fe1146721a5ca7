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
			pairs = append(pairs, [2]string{fmt.Sprintf("%s (%d heaps)", t, len(heaps)), t})
		}
	}
	var sugg []string
	switch v {
	case engine.TwentyOne:
		sugg = []string{"0", "5", "10"}
	case engine.Fibonacci:
		sugg = []string{"20", "13", "30", "50", "random"}
	case engine.Wythoff:
		sugg = []string{"4 7", "3 5", "6 10", "9 12", "random"}
	case engine.Kayles:
		sugg = []string{"3 4 5", "5 8", "7", "2 3 6", "random 3"}
	default:
		sugg = []string{"3 4 5", "1 3 5 7", "2 5 7", "4 4", "6 9 12", "random 3", "random 4", "random 5"}
	}
	for _, x := range sugg {
		label := x
		if strings.HasPrefix(x, "random") {
			label = x + " (random heaps)"
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
	g, err := s.db.ChannelGame(r.ctx, r.i.ChannelID)
	if err != nil || checkTurn(g, r.userID()) != nil {
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
		for i := range g.Position.Heaps {
			moves, _ := heapMoves(g.Rules, g.Position, i)
			if g.Rules.Variant == engine.Lasker {
				split, _ := splitMoves(g.Rules, g.Position, i)
				moves = append(moves, split...)
			}
			for _, m := range moves {
				pairs = append(pairs, [2]string{g.Rules.FormatMove(g.Position, m) + " — " + g.Rules.Describe(g.Position, m), g.Rules.FormatMove(g.Position, m)})
			}
		}
		if g.Rules.Variant == engine.Wythoff {
			moves, _ := diagonalMoves(g.Rules, g.Position)
			for _, m := range moves {
				pairs = append(pairs, [2]string{g.Rules.FormatMove(g.Position, m) + " — " + g.Rules.Describe(g.Position, m), g.Rules.FormatMove(g.Position, m)})
			}
		}
		if t := strings.TrimSpace(typed); t != "" {
			if m, err := g.Rules.ParseMove(g.Position, t); err == nil {
				if _, err := g.Rules.Apply(g.Position, m); err == nil {
					pairs = append([][2]string{{t + " — " + g.Rules.Describe(g.Position, m), t}}, pairs...)
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
			pairs = append(pairs, [2]string{rules.Name() + ": " + engine.FormatGame(rules, pos), t})
		}
	}
	for _, x := range []string{"3 4 5", "nim misere 3-4-5", "1 3 5 7", "subtraction k=3 10 12", "subtraction set=1,3,4 7 9",
		"21", "21 count=5", "greedy 3 5 5", "fibonacci 20", "wythoff 3 5", "wythoff 6 10", "moore k=2 3 5 6", "lasker 4 7", "kayles 5 8"} {
		pairs = append(pairs, [2]string{x, x})
	}
	return choices(typed, pairs), nil
}
