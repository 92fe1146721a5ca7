package engine

import (
	"slices"
	"strings"
)

// Description is everything outside the engine needs to know to offer a
// variant: its names, its settings and their bounds, the shape of its
// positions and moves, how moves are typed and how the game is played.
// Menus, slash-command options, rules pages, the terminal and the CLI read
// it as a table, so adding a variant touches this package and nothing else.
type Description struct {
	// Variant is the value stored and typed ("nim", "21").
	Variant Variant
	// Title is the display name without parameters ("Wythoff's game").
	Title string
	// Aliases are other names ParseGame and the CLI accept ("sub", "twentyone").
	Aliases []string
	// Summary is one short line for a menu: the move in a few words.
	Summary string
	// Rules explains the game to a new player, with its winning idea, in
	// Markdown.
	Rules string
	// Misere is the traditional convention, the default when none is given:
	// true only for the 21 game, where whoever says the target loses.
	Misere bool
	// Settings are the rules' parameters this variant takes, in the order
	// they are shown.
	Settings []Setting
	// Heaps is how many heaps a position has: 0 for any number, else
	// exactly that many (1 for the 21 game's count).
	Heaps int
	// DefaultHeaps are the opening heaps when none are given (nil for the
	// 21 game: the count starts at 0).
	DefaultHeaps []int64
	// RandomHeap is the range random opening heaps are drawn from, before
	// Limits cut it.
	RandomHeap [2]int64
	// HeapExamples are opening heaps worth suggesting as a player types them
	// ("4 7", "random").
	HeapExamples []string
	// Examples are positions in game notation worth suggesting to /nim
	// analyze and quoting in help ("wythoff 3 5").
	Examples []string
	// Moves lists the kinds of move the variant has.
	Moves []MoveKind
	// Notation shows how a move is typed, in words.
	Notation string
	// Counting: the players count up by 1..K towards Target; the one heap is
	// Target minus the count, and a start position is typed as the count.
	Counting bool
	// Limit: positions carry Position.Limit, the most the mover may take now.
	Limit bool
	// Heap and Piece name a heap and what it holds ("row", "pin"); Glyph
	// draws one piece.
	Heap, Piece, Glyph string

	// validate checks what the settings' bounds cannot say (a subtraction
	// set whose Grundy values have no short period); nil for most variants.
	validate func(Rules) error
}

// Has reports whether the variant has moves of kind k.
func (d Description) Has(k MoveKind) bool { return slices.Contains(d.Moves, k) }

// Setting returns the variant's setting called name.
func (d Description) Setting(name string) (Setting, bool) {
	for _, s := range d.Settings {
		if s.Name == name {
			return s, true
		}
	}
	return Setting{}, false
}

// SettingKind says what a setting's value is.
type SettingKind uint8

// The kinds of setting.
const (
	// Int is one whole number ("k=3").
	Int SettingKind = iota
	// IntSet is a set of whole numbers ("set=1,3,4").
	IntSet
)

// Setting is one parameter of a variant's rules.
type Setting struct {
	// Name is the setting's key in the notation ("k" in "k=3"), the CLI flag
	// and the slash-command option.
	Name string
	Kind SettingKind
	// Doc says what the setting means in this variant, in a few words.
	Doc string
	// Default is what Normalize fills in when the setting is not given (0:
	// nothing, as for a set).
	Default int
	// Min and Max bound the value Normalize accepts (for an IntSet, each
	// amount in it).
	Min, Max int64
	// Offer is the range offered to players choosing a game (slash-command
	// bounds); larger values, within Min and Max, are for analysis.
	Offer [2]int64
	// MaxLen is the most amounts an IntSet holds.
	MaxLen int
	// Excludes names a setting that cannot be given together with this one.
	Excludes string

	// variant is the variant the setting belongs to, for DocPhrase's id.
	variant Variant
}

// DocPhrase is Doc as a phrase, variant.<id>.setting.<name>, for a player
// reading another language.
func (s Setting) DocPhrase() Phrase {
	return P("variant." + string(s.variant) + ".setting." + s.Name)
}

// The phrases of a description: each text a player reads is defined once
// as a phrase whose English is the table's string (registerPhrases), so a
// caller can show it in the player's language. The ids are
// variant.<id>.title, .summary, .rules, .notation, .heap, .piece and
// .setting.<name>.

func (d Description) phraseID(part string) string { return "variant." + string(d.Variant) + "." + part }

// TitlePhrase is Title as a phrase.
func (d Description) TitlePhrase() Phrase { return P(d.phraseID("title")) }

// SummaryPhrase is Summary as a phrase.
func (d Description) SummaryPhrase() Phrase { return P(d.phraseID("summary")) }

// RulesPhrase is Rules (Markdown) as a phrase.
func (d Description) RulesPhrase() Phrase { return P(d.phraseID("rules")) }

// NotationPhrase is Notation as a phrase.
func (d Description) NotationPhrase() Phrase { return P(d.phraseID("notation")) }

// HeapPhrase names n heaps ("heap", "heaps"; "row", "rows"): Heap with its
// plural, as a phrase whose Count is n.
func (d Description) HeapPhrase(n int64) Phrase { return P(d.phraseID("heap"), "Count", n) }

// PiecePhrase names n pieces ("stone", "stones"; "pin", "pins"): Piece with
// its plural, as a phrase whose Count is n.
func (d Description) PiecePhrase(n int64) Phrase { return P(d.phraseID("piece"), "Count", n) }

// registerPhrases defines the phrases of every description, with the
// table's English, and tells each setting its variant.
func registerPhrases(ds []Description) {
	for i := range ds {
		d := &ds[i]
		def(d.phraseID("title"), "", d.Title)
		def(d.phraseID("summary"), "", d.Summary)
		def(d.phraseID("rules"), "", d.Rules)
		def(d.phraseID("notation"), "", d.Notation)
		def(d.phraseID("heap"), d.Heap, d.Heap+"s")
		def(d.phraseID("piece"), d.Piece, d.Piece+"s")
		for j := range d.Settings {
			d.Settings[j].variant = d.Variant
			def(d.phraseID("setting."+d.Settings[j].Name), "", d.Settings[j].Doc)
		}
	}
}

// article names the setting in a refusal: "k" (notation, in every
// language), "a set" (words, in the reader's).
func (s Setting) article() Phrase {
	if s.Kind == IntSet {
		return P(pErrRulesASet)
	}
	return Lit(s.Name)
}

// Heap shapes shared by several variants.
var (
	stones          = Description{Heap: "heap", Piece: "stone", Glyph: "●", RandomHeap: [2]int64{1, 15}}
	anyHeapExamples = []string{"3 4 5", "1 3 5 7", "2 5 7", "4 4", "6 9 12", "random 3", "random 4", "random 5"}
)

// descriptions is the table, in the order menus show the variants.
var descriptions = func() []Description {
	like := func(base Description, d Description) Description {
		if d.Heap == "" {
			d.Heap, d.Piece, d.Glyph = base.Heap, base.Piece, base.Glyph
		}
		if d.RandomHeap == [2]int64{} {
			d.RandomHeap = base.RandomHeap
		}
		if d.DefaultHeaps == nil && !d.Counting {
			d.DefaultHeaps = []int64{3, 4, 5}
		}
		if d.HeapExamples == nil {
			d.HeapExamples = anyHeapExamples
		}
		if d.Moves == nil {
			d.Moves = []MoveKind{Take}
		}
		if d.Notation == "" {
			d.Notation = `"B3" takes 3 from heap B`
		}
		return d
	}
	k := func(doc string, def int, max int64) Setting {
		return Setting{Name: "k", Kind: Int, Doc: doc, Default: def, Min: 1, Max: max, Offer: [2]int64{1, min(max, 20)}, Excludes: "set"}
	}
	ds := []Description{
		like(stones, Description{
			Variant: Nim, Title: "Nim",
			Summary: "take any number from one heap",
			Rules: "There are a few heaps of stones. On your turn, take any number of stones (at least one) from **one** heap. " +
				"In normal play whoever takes the last stone wins; in misère play whoever takes the last stone loses.\n\n" +
				"The secret: write the heaps in binary and XOR them (the *nim-sum*). If it is 0, the player to move loses against perfect play.",
			Examples: []string{"3 4 5", "nim misere 3-4-5", "1 3 5 7"},
		}),
		like(stones, Description{
			Variant: Subtraction, Title: "Subtraction", Aliases: []string{"sub"},
			Summary: "take 1..k (or an amount in a set) from one heap",
			Rules: "Like Nim, but a move takes only 1 to k stones (k is 3 by default), or, with a subtraction set like {1,3,4}, exactly one of those amounts.\n\n" +
				"With S(1..k), only each heap's remainder mod k+1 matters.",
			Settings: []Setting{
				k("most per move", 3, MaxHeapSize),
				{Name: "set", Kind: IntSet, Doc: `amounts you may take, like "1,3,4"`, Min: 1, Max: maxSetElement, Offer: [2]int64{1, maxSetElement}, MaxLen: maxSetSize, Excludes: "k"},
			},
			Examples: []string{"subtraction k=3 10 12", "subtraction set=1,3,4 7 9"},
			validate: func(r Rules) error {
				if len(r.Set) == 0 {
					return nil
				}
				_, err := grundyTable(r.Set)
				return err
			},
		}),
		like(stones, Description{
			Variant: TwentyOne, Title: "The 21 game", Aliases: []string{"twentyone", "twenty-one"},
			Summary: "count up by 1..3; whoever says 21 loses",
			Rules: "Two players count up together from 0. On your turn, say 1, 2 or 3 more numbers (up to k). Whoever is forced to say 21 loses.\n\n" +
				"The trick: always finish on a multiple of 4 — 4, 8, 12, 16, 20.",
			Misere: true,
			Settings: []Setting{
				k("most per move", 3, MaxHeapSize),
				{Name: "target", Kind: Int, Doc: "the number counted to", Default: 21, Min: 1, Max: MaxHeapSize, Offer: [2]int64{2, 1000}},
			},
			Heaps: 1, Counting: true,
			HeapExamples: []string{"0", "5", "10"},
			Examples:     []string{"21", "21 count=5"},
			Notation:     `how many more to say, like "2"`,
		}),
		like(stones, Description{
			Variant: Greedy, Title: "Greedy Nim",
			Summary:  "take only from a largest heap",
			Rules:    "Like Nim, but you may only take from a **largest** heap (any of them, if several tie).",
			Examples: []string{"greedy 3 5 5"},
		}),
		like(stones, Description{
			Variant: Fibonacci, Title: "Fibonacci Nim", Aliases: []string{"fib"},
			Summary: "one heap, at most twice the last take",
			Rules: "One heap. The first player may take any number but not all. After that, each move takes at least one and at most **twice** what the opponent just took. Whoever takes the last stone wins.\n\n" +
				"The theory uses Zeckendorf's theorem: every number is a sum of non-consecutive Fibonacci numbers.",
			Heaps: 1, Limit: true, DefaultHeaps: []int64{20}, RandomHeap: [2]int64{10, 60},
			HeapExamples: []string{"20", "13", "30", "50", "random"},
			Examples:     []string{"fibonacci 20"},
		}),
		like(stones, Description{
			Variant: Wythoff, Title: "Wythoff's game",
			Summary: "two heaps; take from one, or equally from both",
			Rules: "Two heaps. On your turn take any number from one heap, **or the same number from both**. Whoever takes the last stone wins.\n\n" +
				"The losing positions are the pairs (⌊kφ⌋, ⌊kφ²⌋): (0,0), (1,2), (3,5), (4,7), (6,10)…",
			Heaps: 2, DefaultHeaps: []int64{4, 7},
			HeapExamples: []string{"4 7", "3 5", "6 10", "9 12", "random"},
			Examples:     []string{"wythoff 3 5", "wythoff 6 10"},
			Moves:        []MoveKind{Take, Diagonal},
			Notation:     `"B3" takes 3 from B; "AB2" takes 2 from both`,
		}),
		like(stones, Description{
			Variant: Moore, Title: "Moore's Nim",
			Summary: "take from up to k heaps at once",
			Rules: "Moore's Nim_k: like Nim, but one move may take from up to **k** heaps at once (any amounts, at least one stone in all). With k=1 it is Nim.\n\n" +
				"A move from several heaps is typed like `A2 C1`.",
			Settings: []Setting{{Name: "k", Kind: Int, Doc: "most heaps per move", Default: 2, Min: 1, Max: maxMooreK, Offer: [2]int64{1, maxMooreK}}},
			Examples: []string{"moore k=2 3 5 6"},
			Moves:    []MoveKind{Take, Multi},
			Notation: `"B3" takes 3 from B; "A2 C1" takes from A and C at once`,
		}),
		like(stones, Description{
			Variant: Lasker, Title: "Lasker's Nim",
			Summary: "take from a heap, or split it in two",
			Rules: "Like Nim, but instead of taking you may **split** a heap into two non-empty heaps.\n\n" +
				"Its Grundy values follow a pattern of period 4: 4m+3 and 4m+4 swap.",
			Examples: []string{"lasker 4 7"},
			Moves:    []MoveKind{Take, Split},
			Notation: `"B3" takes 3 from B; "B=2+3" splits B into 2 and 3`,
		}),
		like(Description{Heap: "row", Piece: "pin", Glyph: "▮"}, Description{
			Variant: Kayles, Title: "Kayles",
			Summary: "knock down 1 or 2 adjacent pins",
			Rules: "Rows of pins. On your turn knock down **one pin or two adjacent pins** from one row; a knock in the middle splits the row in two. Whoever knocks down the last pin wins.\n\n" +
				"Pins are counted from 1 at the left: `B4` knocks pin 4 of row B, `B4-5` pins 4 and 5.",
			RandomHeap:   stones.RandomHeap,
			HeapExamples: []string{"3 4 5", "5 8", "7", "2 3 6", "random 3"},
			Examples:     []string{"kayles 5 8"},
			Moves:        []MoveKind{Knock},
			Notation:     `"B4" knocks pin 4 of row B; "B4-5" knocks pins 4 and 5`,
		}),
	}
	registerPhrases(ds)
	return ds
}()

// Descriptions lists every variant's description, in the order menus show
// them. The slices inside are the caller's to keep: each call copies.
func Descriptions() []Description {
	out := make([]Description, len(descriptions))
	for i, d := range descriptions {
		out[i] = d.clone()
	}
	return out
}

// Describe returns the description of v, and false for a variant the engine
// does not offer.
func Describe(v Variant) (Description, bool) {
	for _, d := range descriptions {
		if d.Variant == v {
			return d.clone(), true
		}
	}
	return Description{}, false
}

// Lookup finds a variant by what a person typed: its name or an alias, in
// any case.
func Lookup(name string) (Variant, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	for _, d := range descriptions {
		if string(d.Variant) == name || slices.Contains(d.Aliases, name) {
			return d.Variant, true
		}
	}
	return "", false
}

// SettingNames lists every setting any variant takes, each once, in the
// order they first appear in the table.
func SettingNames() []string {
	var names []string
	for _, d := range descriptions {
		for _, s := range d.Settings {
			if !slices.Contains(names, s.Name) {
				names = append(names, s.Name)
			}
		}
	}
	return names
}

func (d Description) clone() Description {
	d.Aliases = slices.Clone(d.Aliases)
	d.Settings = slices.Clone(d.Settings)
	d.DefaultHeaps = slices.Clone(d.DefaultHeaps)
	d.HeapExamples = slices.Clone(d.HeapExamples)
	d.Examples = slices.Clone(d.Examples)
	d.Moves = slices.Clone(d.Moves)
	return d
}

// describe is Describe for the engine's own use, without the copy.
func describe(v Variant) (*Description, bool) {
	for i := range descriptions {
		if descriptions[i].Variant == v {
			return &descriptions[i], true
		}
	}
	return nil, false
}
