package commands

import (
	"strings"
	"testing"
	"time"

	"nimbot/commands/locale"
	"nimbot/engine"
)

// TestDurationInWords checks the durations a message quotes (the
// challenge cooldown's) are words in the reader's language, through the
// catalog's plural forms, never Go's "1m30s".
func TestDurationInWords(t *testing.T) {
	for _, c := range []struct {
		lang string
		d    time.Duration
		want string
	}{
		{"en", 90 * time.Second, "1 minute 30 seconds"},
		{"en", 0, "1 second"},
		{"en", time.Hour + 2*time.Second, "1 hour 2 seconds"},
		{"de", 90 * time.Second, "1 Minute 30 Sekunden"},
		{"fr", 2 * time.Minute, "2 minutes"},
		{"es-ES", 61 * time.Second, "1 minuto y 1 segundo"},
		{"pt-BR", 1500 * time.Millisecond, "2 segundos"},
		{"ja", 90 * time.Second, "1分30秒"},
	} {
		if got := locale.For(c.lang).Phrase(duration(c.d)); got != c.want {
			t.Errorf("%s %v: %q, want %q", c.lang, c.d, got, c.want)
		}
	}
}

// TestNobodyInWords checks a seat with no player yet is written in the
// reader's language.
func TestNobodyInWords(t *testing.T) {
	for lang, want := range map[string]string{"en": "nobody", "de": "niemand", "fr": "personne", "es-ES": "nadie", "pt-BR": "ninguém", "ja": "なし"} {
		if got := locale.For(lang).Phrase(name("")); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
	if got := locale.For("de").Phrase(name("42")); got != "<@42>" {
		t.Errorf("a player: %q", got)
	}
}

// TestRuleSettingByOptionName checks a refused rule setting is named as
// the reader's Discord names the option, not by the engine's English word.
func TestRuleSettingByOptionName(t *testing.T) {
	r, err := engine.Rules{Variant: engine.Nim}.With("target", 5)
	if err == nil {
		_, err = r.Normalize()
	}
	if err == nil {
		t.Fatal("Nim took a target")
	}
	refused := userErr("refusal.rules.invalid", "Reason", engineReason(err))
	for lang, want := range map[string]string{"en": "target", "de": "ziel", "fr": "cible", "es-ES": "meta", "pt-BR": "alvo"} {
		got, _ := isUserError(refused, locale.For(lang))
		if !strings.Contains(got, want) || (lang != "en" && strings.Contains(got, "target")) {
			t.Errorf("%s: %q does not name the option %s", lang, got, want)
		}
	}
}
