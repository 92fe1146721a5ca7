package commands

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"nimbot/engine"
)

// Names of the slash command's options, shared by Definitions and the
// handlers that read them.
const (
	optOpponent   = "opponent"
	optVariant    = "variant"
	optHeaps      = "heaps"
	optMisere     = "misere"
	optK          = "k" // one of the settings engine.SettingNames lists
	optFirst      = "first"
	optDifficulty = "difficulty"
	optHints      = "hints"
	optHeap       = "heap"
	optTake       = "take"
	optBoth       = "both"
	optSplit      = "split"
	optPin        = "pin"
	optNotation   = "notation"
	optLevel      = "level"
	optPosition   = "position"
	optPublic     = "public"
	optUser       = "user"
)

// Names of the slash command's subcommands that messages point to, shared
// by Definitions and those messages (subName).
const (
	subStart   = "start"
	subMove    = "move"
	subHint    = "hint"
	subStatus  = "status"
	subAnalyze = "analyze"
	subEnd     = "end"
)

// The first-mover choices of /nim start.
const (
	firstMe       = "me"
	firstOpponent = "opponent"
	firstRandom   = "random"
)

// variantChoices offers every variant the engine describes; with summary,
// each choice says the move in a few words too ("Nim — take any number
// from one heap"), which /nim start needs and the other menus can spare.
func variantChoices(summary bool) []*discordgo.ApplicationCommandOptionChoice {
	var cs []*discordgo.ApplicationCommandOptionChoice
	for _, d := range engine.Descriptions() {
		name := d.Title
		if summary {
			name += variantMenuSep + d.Summary
		}
		cs = append(cs, &discordgo.ApplicationCommandOptionChoice{Name: truncate(name, 100), Value: string(d.Variant)})
	}
	return cs
}

// settingOptions are /nim start's options for the variants' settings, one
// per setting name in the engine's table: an integer option bounded by the
// widest range any variant offers, or a string for a set of amounts. The
// description says which variants take it and what it means in each.
func settingOptions() []*discordgo.ApplicationCommandOption {
	var out []*discordgo.ApplicationCommandOption
	for _, name := range engine.SettingNames() {
		o := &discordgo.ApplicationCommandOption{Name: name}
		var parts []string
		var lo, hi int64
		for _, d := range engine.Descriptions() {
			s, ok := d.Setting(name)
			if !ok {
				continue
			}
			if o.Type == 0 || s.Offer[0] < lo {
				lo = s.Offer[0]
			}
			hi = max(hi, s.Offer[1])
			o.Type = discordgo.ApplicationCommandOptionInteger
			if s.Kind == engine.IntSet {
				o.Type = discordgo.ApplicationCommandOptionString
			}
			doc := s.Doc
			if s.Default != 0 {
				doc += fmt.Sprintf(" (default %d)", s.Default)
			}
			if s.Excludes != "" && s.Kind == engine.IntSet {
				doc += ", not with " + s.Excludes
			}
			merged := false
			for i, p := range parts {
				if head, tail, _ := strings.Cut(p, ": "); tail == doc {
					parts[i] = head + ", " + string(d.Variant) + ": " + doc
					merged = true
				}
			}
			if !merged {
				parts = append(parts, string(d.Variant)+": "+doc)
			}
		}
		o.Description = truncate(strings.Join(parts, "; "), 100)
		if o.Type == discordgo.ApplicationCommandOptionInteger {
			o.MinValue, o.MaxValue = minf(float64(lo)), float64(hi)
		} else {
			o.MaxLength = maxSetLength
		}
		out = append(out, o)
	}
	return out
}

// maxSetLength bounds a typed set of amounts ("1,3,4").
const maxSetLength = 60

func difficultyChoices() []*discordgo.ApplicationCommandOptionChoice {
	var cs []*discordgo.ApplicationCommandOptionChoice
	for _, d := range engine.Difficulties() {
		cs = append(cs, &discordgo.ApplicationCommandOptionChoice{Name: string(d), Value: string(d)})
	}
	return cs
}

func minf(v float64) *float64 { return &v }

func truncate(s string, n int) string {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s // the usual case, without copying s into runes
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Definitions returns the application commands to register with
// ApplicationCommandBulkOverwrite: one /nim command whose subcommands cover
// the whole product, with its names and descriptions in every locale the
// catalog ships.
func Definitions() []*discordgo.ApplicationCommand {
	defs := definitions()
	for _, c := range defs {
		localize(c)
	}
	return defs
}

// definitions is Definitions in English only: the shape and bounds input
// checks read, without building every locale's text each time.
func definitions() []*discordgo.ApplicationCommand {
	str := discordgo.ApplicationCommandOptionString
	integer := discordgo.ApplicationCommandOptionInteger
	boolean := discordgo.ApplicationCommandOptionBoolean
	sub := func(name, desc string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: desc, Options: opts}
	}
	opt := func(t discordgo.ApplicationCommandOptionType, name, desc string) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: t, Name: name, Description: desc}
	}
	variant := func(desc string, summary bool) *discordgo.ApplicationCommandOption {
		o := opt(str, optVariant, desc)
		o.Choices = variantChoices(summary)
		return o
	}
	heaps := opt(str, optHeaps, `Heap sizes like "3 4 5", or "random 4"`)
	heaps.Autocomplete = true
	heaps.MaxLength = 100
	first := opt(str, optFirst, "Who moves first (default random)")
	first.Choices = []*discordgo.ApplicationCommandOptionChoice{
		{Name: "me", Value: firstMe}, {Name: "my opponent", Value: firstOpponent}, {Name: "random", Value: firstRandom},
	}
	difficulty := opt(str, optDifficulty, "How well nimbot plays (default medium)")
	difficulty.Choices = difficultyChoices()
	startOpts := []*discordgo.ApplicationCommandOption{
		opt(discordgo.ApplicationCommandOptionUser, optOpponent, "Who to challenge (empty: play nimbot)"),
		variant("Which game (default Nim)", true),
		heaps,
		opt(boolean, optMisere, "Whoever makes the last move loses (default off)"),
	}
	startOpts = append(startOpts, settingOptions()...)
	startOpts = append(startOpts, first, difficulty, opt(boolean, optHints, "Against a person: allow hints (default on)"))

	heap := opt(str, optHeap, "The heap (row) by letter: A, B, C…")
	heap.Autocomplete = true
	heap.MaxLength = 3
	take := opt(integer, optTake, "How many (numbers to say when counting; 1 or 2 pins)")
	take.MinValue = minf(1)
	split := opt(str, optSplit, `Split the heap in two, like "2+3"`)
	split.MaxLength = 40
	pin := opt(integer, optPin, "The first pin to knock down, from 1 at the left")
	pin.MinValue = minf(1)
	notation := opt(str, optNotation, `Any move typed out, like "B3" or "A2 C1"`)
	notation.Autocomplete = true
	notation.MaxLength = 100
	level := opt(integer, optLevel, "How much to reveal (default 2)")
	level.Choices = []*discordgo.ApplicationCommandOptionChoice{
		{Name: "who is winning", Value: 1}, {Name: "the move", Value: 2}, {Name: "the move and why", Value: 3},
	}
	position := opt(str, optPosition, `Like "3 4 5", "nim misere 3-4-5" or "wythoff 3 5"`)
	position.Autocomplete = true
	position.MaxLength = 100
	position.Required = true

	nim := &discordgo.ApplicationCommand{
		Type:        discordgo.ChatApplicationCommand,
		Name:        "nim",
		Description: "Play Nim and its relatives against nimbot or a friend",
		// Installed to servers (as a bot) or to a user's account; used in
		// servers, in DMs with nimbot and in the user's other DMs and group
		// DMs, where nimbot is no member and answers only interactions
		// (see the README's "Two ways to install").
		Contexts: &[]discordgo.InteractionContextType{
			discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel,
		},
		IntegrationTypes: &[]discordgo.ApplicationIntegrationType{
			discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall,
		},
		Options: []*discordgo.ApplicationCommandOption{
			sub(subStart, "Start a game here, against nimbot or someone you challenge", startOpts...),
			sub(subMove, "Make a move (or click the board)",
				heap, take,
				opt(boolean, optBoth, "Take the amount from both heaps"),
				split, pin, notation,
			),
			sub(subHint, "A hint on your turn, only for you", level),
			sub("resign", "Resign this channel's game"),
			sub(subStatus, "Post this channel's board again"),
			sub("rules", "How to play a game", variant("Which game (default Nim)", false)),
			sub(subAnalyze, "Who wins any position, and why",
				position,
				opt(boolean, optPublic, "Show it to everyone (default: only you)"),
			),
			sub("stats", "Wins, losses and streaks in this server",
				opt(discordgo.ApplicationCommandOptionUser, optUser, "Whose stats (default yours)"),
				variant("Only this game", false),
			),
			sub("leaderboard", "The best players in this server", variant("Only this game", false),
				opt(boolean, optPuzzles, "The puzzles board instead")),
			sub(subEnd, "End this channel's game (players or message managers)"),
			sub(subPrivacy, "What nimbot keeps about you, and deleting it"),
			puzzleSub(),
			dailySub(),
			learnSub(),
		},
	}
	return []*discordgo.ApplicationCommand{nim}
}
