package commands

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands/locale"
	"nimbot/engine"
)

// localizedName is Discord's rule for command and option names in any
// language (its API schema's pattern, with Go's script names); the letters
// must also be lowercase where the script has case.
var localizedName = regexp.MustCompile(`^[-_\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// TestDefinitionsLocalized checks that every name and description of /nim
// has a translation in every served locale (none falls back to English
// because the catalog lacks it), the one its users' replies are written in
// (es-419 reads es-ES), and that each obeys Discord's rules.
func TestDefinitionsLocalized(t *testing.T) {
	c := Definitions()[0]
	if c.NameLocalizations != nil {
		t.Errorf("/nim's name is localized; it stays nim in every language")
	}
	// sameAsReplies: a locale served through another (es-419) reads that
	// one's text, as its replies do.
	sameAsReplies := func(path string, m map[discordgo.Locale]string) {
		for _, l := range locale.Served() {
			if lang := discordgo.Locale(locale.For(string(l)).Lang()); m[l] != m[lang] {
				t.Errorf("%s: %s reads %q, its replies' language %s %q", path, l, m[l], lang, m[lang])
			}
		}
	}
	checkDesc := func(path string, m map[discordgo.Locale]string) {
		sameAsReplies(path, m)
		for _, l := range locale.Served() {
			s, ok := m[l]
			if n := utf8.RuneCountInString(s); !ok || n < 1 || n > 100 {
				t.Errorf("%s: %s description %q (present %v), want 1-100 characters", path, l, s, ok)
			}
		}
	}
	checkName := func(path string, m map[discordgo.Locale]string) {
		sameAsReplies(path, m)
		for _, l := range locale.Served() {
			s, ok := m[l]
			if !ok || !localizedName.MatchString(s) || strings.ToLower(s) != s {
				t.Errorf("%s: %s name %q (present %v), want lowercase, no spaces, 1-32 characters", path, l, s, ok)
			}
		}
	}
	// unique: within one list of options, each locale's names differ, as
	// the English ones do, or Discord refuses the command.
	unique := func(path string, opts []*discordgo.ApplicationCommandOption) {
		for _, l := range locale.Served() {
			seen := map[string]string{}
			for _, o := range opts {
				if other, ok := seen[o.NameLocalizations[l]]; ok {
					t.Errorf("%s: %s names %s and %s alike: %q", path, l, other, o.Name, o.NameLocalizations[l])
				}
				seen[o.NameLocalizations[l]] = o.Name
			}
		}
	}
	checkDesc("/nim", locales(c.DescriptionLocalizations))
	unique("/nim", c.Options)
	for _, s := range c.Options {
		p := "/nim " + s.Name
		checkName(p, s.NameLocalizations)
		checkDesc(p, s.DescriptionLocalizations)
		unique(p, s.Options)
		for _, o := range s.Options {
			p := p + " " + o.Name
			checkName(p, o.NameLocalizations)
			checkDesc(p, o.DescriptionLocalizations)
			for _, ch := range o.Choices {
				sameAsReplies(fmt.Sprintf("%s choice %v", p, ch.Value), ch.NameLocalizations)
				for _, l := range locale.Served() {
					s, ok := ch.NameLocalizations[l]
					if n := utf8.RuneCountInString(s); !ok || n < 1 || n > 100 {
						t.Errorf("%s choice %v: %s name %q (present %v), want 1-100 characters", p, ch.Value, l, s, ok)
					}
				}
			}
		}
	}
}

// TestCatalogEnglish checks that the catalog's English is the text /nim
// and the engine's table show, message by message, and that the catalog
// holds no message /nim does not use: a changed English text must be
// changed (and translated again) in the catalog too.
func TestCatalogEnglish(t *testing.T) {
	c := definitions()[0]
	want := map[string]string{cmdDescID(c): c.Description}
	for _, s := range c.Options {
		want[subNameID(c, s)] = s.Name
		want[subDescID(c, s)] = s.Description
		for _, o := range s.Options {
			want[optNameID(o)] = o.Name
			want[optDescID(c, s, o)] = o.Description
			if o.Name == optVariant {
				continue // by variant id, below
			}
			for _, ch := range o.Choices {
				want[choiceID(o, ch)] = ch.Name
			}
		}
	}
	for _, d := range engine.Descriptions() {
		want[variantTitleID(d.Variant)] = d.Title
		want[variantSummaryID(d.Variant)] = d.Summary
	}
	for id, english := range want {
		if got, ok := locale.Text(locale.English, id); !ok || got != english {
			t.Errorf("%s: catalog has %q (present %v), /nim shows %q", id, got, ok, english)
		}
	}
	for _, id := range locale.IDs(locale.English) {
		if _, ok := want[id]; !ok && definitionID(id) {
			t.Errorf("%s: in the catalog, used nowhere", id)
		}
	}
}

// TestLocalizeKeepsRouting checks that localizing changes no base name,
// value or bound: Discord sends the base names back whatever the user's
// language, and the handlers read those.
func TestLocalizeKeepsRouting(t *testing.T) {
	plain, local := definitions()[0], Definitions()[0]
	var names func(c []*discordgo.ApplicationCommandOption) []string
	names = func(opts []*discordgo.ApplicationCommandOption) []string {
		var out []string
		for _, o := range opts {
			out = append(out, o.Name, o.Description)
			for _, ch := range o.Choices {
				out = append(out, ch.Name)
			}
			out = append(out, names(o.Options)...)
		}
		return out
	}
	if plain.Name != local.Name || plain.Description != local.Description || !slices.Equal(names(plain.Options), names(local.Options)) {
		t.Fatal("localizing changed a base name or description")
	}
}

// definitionID reports whether id is in the namespaces of /nim's
// definition (see localize.go); the catalog's other ids (board.*,
// control.*, engine phrases…) are checked where they are used.
func definitionID(id string) bool {
	for _, p := range []string{"nim.", "opt.", "choice."} {
		if strings.HasPrefix(id, p) {
			return true
		}
	}
	return strings.HasPrefix(id, "variant.") && (strings.HasSuffix(id, ".title") || strings.HasSuffix(id, ".summary"))
}
