package commands

import (
	"testing"
	"time"
)

// TestClientTextRelative words durations as Discord's relative timestamps
// do, in each language, with the singular where the language has one.
func TestClientTextRelative(t *testing.T) {
	for _, tc := range []struct {
		lang string
		d    time.Duration
		want string
	}{
		{"en", 30 * time.Second, "in 30 seconds"},
		{"en", time.Second, "in 1 second"},
		{"en", time.Minute, "in 1 minute"},
		{"en", 59*time.Minute + 59*time.Second, "in 59 minutes"},
		{"en", 24 * time.Hour, "in 24 hours"},
		{"en", 72 * time.Hour, "in 3 days"},
		{"en", -2 * time.Hour, "2 hours ago"},
		{"en", -time.Hour, "1 hour ago"},
		{"en", -48 * time.Hour, "2 days ago"},
		{"en-GB", -time.Second, "1 second ago"},
		{"de", 59 * time.Minute, "in 59 Minuten"},
		{"de", time.Minute, "in 1 Minute"},
		{"de", -3 * 24 * time.Hour, "vor 3 Tagen"},
		{"de", -24 * time.Hour, "vor 24 Stunden"},
		{"fr", 59 * time.Minute, "dans 59 minutes"},
		{"fr", -time.Hour, "il y a 1 heure"},
		{"es-ES", 59 * time.Minute, "dentro de 59 minutos"},
		{"es-419", -time.Minute, "hace 1 minuto"},
		{"pt-BR", 5 * time.Second, "em 5 segundos"},
		{"pt-BR", -50 * time.Hour, "há 2 dias"},
		{"ja", 59 * time.Minute, "59 分後"},
		{"ja", -time.Minute, "1 分前"},
		{"ja", 3 * time.Hour, "3 時間後"},
		{"zh-CN", time.Minute, "in 1 minute"},
	} {
		if got := ClientTextFor(tc.lang).Relative(tc.d); got != tc.want {
			t.Errorf("%s %v: %q, want %q", tc.lang, tc.d, got, tc.want)
		}
	}
	var zero ClientText
	if got := zero.Relative(-3 * time.Minute); got != "3 minutes ago" {
		t.Errorf("the zero ClientText: %q, want English", got)
	}
}

// TestClientTextLabels: the date and the labels a client draws, in each
// language.
func TestClientTextLabels(t *testing.T) {
	at := time.Date(2026, 1, 2, 15, 4, 0, 0, time.FixedZone("CET", 3600))
	for _, tc := range []struct {
		lang                                 string
		time, ephemeral, disabled, isDefault string
	}{
		{"en", "2026-01-02 14:04 UTC", "(only you can see this)", "(disabled)", "(default)"},
		{"de", "02.01.2026, 14:04 UTC", "(nur du kannst das sehen)", "(deaktiviert)", "(Standard)"},
		{"fr", "02/01/2026 à 14:04 UTC", "(visible uniquement par toi)", "(désactivé)", "(par défaut)"},
		{"es-ES", "02/01/2026, 14:04 UTC", "(solo tú puedes ver esto)", "(desactivado)", "(predeterminado)"},
		{"pt-BR", "02/01/2026 às 14:04 UTC", "(só você pode ver isto)", "(desativado)", "(padrão)"},
		{"ja", "2026/01/02 14:04（UTC）", "（これはあなただけに表示されています）", "（無効）", "（既定）"},
	} {
		c := ClientTextFor(tc.lang)
		for _, got := range [][2]string{{c.Time(at), tc.time}, {c.Ephemeral(), tc.ephemeral}, {c.Disabled(), tc.disabled}, {c.Default(), tc.isDefault}} {
			if got[0] != got[1] {
				t.Errorf("%s: %q, want %q", tc.lang, got[0], got[1])
			}
		}
	}
}
