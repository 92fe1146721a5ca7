package commands

import (
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
	optK          = "k"
	optSet        = "set"
	optTarget     = "target"
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

// The first-mover choices of /nim start.
const (
	firstMe       = "me"
	firstOpponent = "opponent"
	firstRandom   = "random"
)

var variantBlurb = map[engine.Variant]string{
	engine.Nim:         "Nim — take any number from one heap",
	engine.Subtraction: "Subtraction — take 1..k (or an amount in a set) from one heap",
	engine.TwentyOne:   "The 21 game — count up by 1..3; whoever says 21 loses",
	engine.Greedy:      "Greedy Nim — take only from a largest heap",
	engine.Fibonacci:   "Fibonacci Nim — one heap, at most twice the last take",
	engine.Wythoff:     "Wythoff — two heaps; take from one, or equally from both",
	engine.Moore:       "Moore's Nim_k — take from up to k heaps at once",
	engine.Lasker:      "Lasker's Nim — take from a heap, or split it in two",
	engine.Kayles:      "Kayles — knock down 1 or 2 adjacent pins",
}

func variantChoices() []*discordgo.ApplicationCommandOptionChoice {
	var cs []*discordgo.ApplicationCommandOptionChoice
	for _, v := range engine.Variants() {
		name := variantBlurb[v]
		if name == "" {
			name = string(v)
		}
		cs = append(cs, &discordgo.ApplicationCommandOptionChoice{Name: truncate(name, 100), Value: string(v)})
	}
	return cs
}

func difficultyChoices() []*discordgo.ApplicationCommandOptionChoice {
	var cs []*discordgo.ApplicationCommandOptionChoice
	for _, d := range engine.Difficulties() {
		cs = append(cs, &discordgo.ApplicationCommandOptionChoice{Name: string(d), Value: string(d)})
	}
	return cs
}

func minf(v float64) *float64 { return &v }

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Definitions returns the application commands to register with
// ApplicationCommandBulkOverwrite: one /nim command whose subcommands cover
// the whole product.
func Definitions() []*discordgo.ApplicationCommand {
	str := discordgo.ApplicationCommandOptionString
	integer := discordgo.ApplicationCommandOptionInteger
	boolean := discordgo.ApplicationCommandOptionBoolean
	sub := func(name, desc string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: desc, Options: opts}
	}
	opt := func(t discordgo.ApplicationCommandOptionType, name, desc string) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: t, Name: name, Description: desc}
	}
	variant := func(desc string) *discordgo.ApplicationCommandOption {
		o := opt(str, optVariant, desc)
		o.Choices = variantChoices()
		return o
	}
	heaps := opt(str, optHeaps, `Heap sizes like "3 4 5", or "random 4" for four random heaps (default 3 4 5)`)
	heaps.Autocomplete = true
	heaps.MaxLength = 100
	k := opt(integer, optK, "Subtraction/21: most you may take or say (default 3); Moore: most heaps per move (default 2)")
	k.MinValue, k.MaxValue = minf(1), 20
	set := opt(str, optSet, `Subtraction: the amounts you may take, like "1,3,4" (replaces k)`)
	set.MaxLength = 60
	target := opt(integer, optTarget, "The 21 game: the number whoever says it loses (default 21)")
	target.MinValue, target.MaxValue = minf(2), 1000
	first := opt(str, optFirst, "Who moves first (default random)")
	first.Choices = []*discordgo.ApplicationCommandOptionChoice{
		{Name: "me", Value: firstMe}, {Name: "my opponent", Value: firstOpponent}, {Name: "random", Value: firstRandom},
	}
	difficulty := opt(str, optDifficulty, "How well nimbot plays (default medium)")
	difficulty.Choices = difficultyChoices()

	heap := opt(str, optHeap, "The heap (row) to move in, by its letter: A, B, C…")
	heap.Autocomplete = true
	heap.MaxLength = 3
	take := opt(integer, optTake, "How many to take (21 game: how many numbers to say; Kayles: 1 or 2 pins)")
	take.MinValue = minf(1)
	split := opt(str, optSplit, `Lasker: split the heap into two, like "2+3"`)
	split.MaxLength = 40
	pin := opt(integer, optPin, "Kayles: the first pin to knock down, counted from 1 at the left of the row")
	pin.MinValue = minf(1)
	notation := opt(str, optNotation, `Any move typed out: "B3", "AB2" (Wythoff), "A2 C1" (Moore), "B=2+3" (Lasker), "B4-5" (Kayles)`)
	notation.Autocomplete = true
	notation.MaxLength = 100
	level := opt(integer, optLevel, "How much to reveal (default 2)")
	level.Choices = []*discordgo.ApplicationCommandOptionChoice{
		{Name: "1 — who is winning", Value: 1}, {Name: "2 — the move to make", Value: 2}, {Name: "3 — the move and the reasoning", Value: 3},
	}
	position := opt(str, optPosition, `A position like "3 4 5", "nim misere 3-4-5", "wythoff 3 5", "21 count=5", "kayles 5 8"`)
	position.Autocomplete = true
	position.MaxLength = 100
	position.Required = true

	nim := &discordgo.ApplicationCommand{
		Type:        discordgo.ChatApplicationCommand,
		Name:        "nim",
		Description: "Play Nim and its relatives against nimbot or a friend",
		// Servers and DMs with nimbot; installed to servers (a DM is a
		// channel of its own, so games there are against nimbot).
		Contexts:         &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM},
		IntegrationTypes: &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall},
		Options: []*discordgo.ApplicationCommandOption{
			sub("start", "Start a game in this channel, against nimbot or someone you challenge",
				opt(discordgo.ApplicationCommandOptionUser, optOpponent, "Who to challenge (leave empty to play nimbot)"),
				variant("Which game (default Nim)"),
				heaps,
				opt(boolean, optMisere, "Misère play: whoever makes the last move loses (default off)"),
				k, set, target, first, difficulty,
				opt(boolean, optHints, "Against a person: allow hints (default on)"),
			),
			sub("move", "Make a move in this channel's game (or click the board)",
				heap, take,
				opt(boolean, optBoth, "Wythoff: take the amount from both heaps"),
				split, pin, notation,
			),
			sub("hint", "Ask for a hint on your turn (only you see it)", level),
			sub("resign", "Resign this channel's game"),
			sub("status", "Post this channel's board again"),
			sub("rules", "How to play a variant", variant("Which game (default Nim)")),
			sub("analyze", "Who wins any position, every winning move and why",
				position,
				opt(boolean, optPublic, "Post the analysis for everyone (default: only you see it)"),
			),
			sub("stats", "Wins, losses and streaks in this server",
				opt(discordgo.ApplicationCommandOptionUser, optUser, "Whose stats (default yours)"),
				variant("Only this game (default all)"),
			),
			sub("leaderboard", "The best players in this server", variant("Only this game (default all)")),
			sub("end", "End this channel's game (players, or members who can manage messages)"),
		},
	}
	return []*discordgo.ApplicationCommand{nim}
}
