package locale

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// glossary is one language's word list (glossary/<lang>.json): for each
// game concept the one term its catalog uses, the synonyms that term
// replaces (a reader meeting two words for one thing asks whether they
// are two things), and the English words a translation must not keep.
type glossary struct {
	// Address is the one form the language speaks to its reader in
	// ("du", "tu", "tú", "você", "です/ます"); the address entry's
	// replaces are the other form's words.
	Address string  `json:"address"`
	Terms   []gterm `json:"terms"`
}

type gterm struct {
	// Concept names what the term means ("heap", "title.lasker",
	// "address"); Term is the language's word for it.
	Concept string `json:"concept"`
	Term    string `json:"term"`
	// Replaces are words the catalog must not use for the concept: a
	// trailing * matches any word starting so ("coge*").
	Replaces []string `json:"replaces"`
	// English are the English words for the concept, which the catalog
	// must not leave untranslated.
	English []string `json:"english"`
	// Case makes replaces match with case (German "Sie", the polite
	// "you", is not "sie", "they").
	Case bool `json:"case"`
}

// glossaryConcepts are the concepts every glossary names.
var glossaryConcepts = []string{
	"heap", "take", "move", "split", "opponent", "challenge", "rating", "resign", "hint", "misère", "address",
	"title.nim", "title.subtraction", "title.21", "title.greedy", "title.fibonacci", "title.wythoff",
	"title.moore", "title.lasker", "title.kayles",
}

func readGlossary(t *testing.T, lang string) glossary {
	t.Helper()
	buf, err := os.ReadFile(filepath.Join("glossary", lang+".json"))
	if err != nil {
		t.Fatalf("%s has no glossary: %v", lang, err)
	}
	var g glossary
	dec := json.NewDecoder(strings.NewReader(string(buf)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&g); err != nil {
		t.Fatalf("glossary/%s.json: %v", lang, err)
	}
	return g
}

// plainText is what a reader reads of a message: its template actions,
// code spans (notation and commands, typed as they are in every
// language) and addresses left out.
var (
	actionRE = regexp.MustCompile(`\{\{[^}]*\}\}`)
	codeRE   = regexp.MustCompile("`[^`]*`")
	urlRE    = regexp.MustCompile(`https?://\S+`)
)

func plainText(s string) string {
	s = actionRE.ReplaceAllString(s, " ")
	s = codeRE.ReplaceAllString(s, " ")
	return urlRE.ReplaceAllString(s, " ")
}

// wordRE matches word w in a text: whole words, case-insensitive unless
// exact, a trailing * any ending; in Japanese, which has no spaces, any
// occurrence.
func wordRE(w string, exact, japanese bool) *regexp.Regexp {
	flags := "(?i)"
	if exact {
		flags = ""
	}
	prefix := strings.HasSuffix(w, "*")
	body := regexp.QuoteMeta(strings.TrimSuffix(w, "*"))
	if japanese {
		return regexp.MustCompile(flags + body)
	}
	if prefix {
		body += `[\p{L}\p{M}]*`
	}
	return regexp.MustCompile(flags + `(?:^|[^\p{L}\p{M}\p{N}])(` + body + `)(?:$|[^\p{L}\p{M}\p{N}])`)
}

// TestGlossary holds every translated catalog to its glossary: no message
// uses a synonym its glossary replaces or leaves a glossary concept in
// English, each game's title is the glossary's term, and every concept
// has one term the catalog uses.
func TestGlossary(t *testing.T) {
	for _, l := range Locales() {
		lang := string(l)
		t.Run(lang, func(t *testing.T) {
			g := readGlossary(t, lang)
			ja := lang == "ja"
			var concepts []string
			for _, term := range g.Terms {
				concepts = append(concepts, term.Concept)
			}
			for _, c := range glossaryConcepts {
				if !slices.Contains(concepts, c) {
					t.Errorf("the glossary has no term for %s", c)
				}
			}
			if g.Address == "" {
				t.Error("the glossary names no form of address")
			}
			msgs := catalog.messages[lang]
			var all strings.Builder
			for _, id := range IDs(lang) {
				m := msgs[id]
				for _, body := range []string{m.Zero, m.One, m.Two, m.Few, m.Many, m.Other} {
					all.WriteString(plainText(body))
					all.WriteString("\n")
				}
			}
			for _, term := range g.Terms {
				if term.Term == "" {
					t.Errorf("%s has no term", term.Concept)
					continue
				}
				if v, ok := strings.CutPrefix(term.Concept, "title."); ok {
					if got, _ := Text(lang, "variant."+v+".title"); got != term.Term {
						t.Errorf("the title of %s is %q, the glossary's %q", v, got, term.Term)
					}
				} else if term.Concept != "address" && !strings.Contains(strings.ToLower(all.String()), strings.ToLower(term.Term)) {
					t.Errorf("%s: the catalog never uses the glossary's term %q", term.Concept, term.Term)
				}
				type check struct {
					words []string
					exact bool
					what  string
				}
				for _, c := range []check{{term.Replaces, term.Case, "a synonym the glossary replaces with " + term.Term}, {term.English, false, "English; the glossary says " + term.Term}} {
					for _, w := range c.words {
						re := wordRE(w, c.exact, ja)
						for _, id := range IDs(lang) {
							m := msgs[id]
							for _, body := range []string{m.Zero, m.One, m.Two, m.Few, m.Many, m.Other} {
								if loc := re.FindStringIndex(plainText(body)); loc != nil {
									t.Errorf("%s (%s): %q is %s", id, term.Concept, strings.TrimSpace(plainText(body)[loc[0]:loc[1]]), c.what)
								}
							}
						}
					}
				}
			}
		})
	}
}

// TestGlossaryCatchesDrift feeds the glossary's matcher the drift the
// glossaries were written against, so a matcher that stopped matching
// would not pass every catalog quietly.
func TestGlossaryCatchesDrift(t *testing.T) {
	for _, c := range []struct {
		word, text string
		exact, ja  bool
		want       bool
	}{
		{"coge*", "Coge 2 del montón A.", false, false, true},
		{"quita*", "Quitas 2.", false, false, true},
		{"quita*", "escribe quit", false, false, false},
		{"coge*", "Recoges 2.", false, false, false},
		{"pilha*", "a pilha B", false, false, true},
		{"Sie", "Wählen Sie einen Zug", true, false, true},
		{"Sie", "sie haben gewonnen", true, false, false},
		{"vous", "pour vous seul", false, false, true},
		{"vous", "nouveau", false, false, false},
		{"指す", "次に指す手", false, true, true},
		{"heap", "tas (heap)", false, false, true},
		{"heap", "heaps", false, false, false},
	} {
		if got := wordRE(c.word, c.exact, c.ja).MatchString(plainText(c.text)); got != c.want {
			t.Errorf("%q in %q: matched %v, want %v", c.word, c.text, got, c.want)
		}
	}
	if got := plainText("take `B3` {{.Take}} https://x/heap"); strings.Contains(got, "B3") || strings.Contains(got, "Take") || strings.Contains(got, "heap") {
		t.Errorf("plainText kept code, fields or addresses: %q", got)
	}
}
