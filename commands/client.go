package commands

import (
	"time"

	"nimbot/commands/locale"
)

// English is the language nimbot falls back to: the default text of every
// message, and the language of a locale the catalog does not ship.
const English = locale.English

// Languages lists the languages nimbot speaks, by Discord locale code:
// English first, then the translated ones ("de", "fr", "es-ES", "pt-BR",
// "ja"). A transport that lets its user choose a language (the
// terminal's -lang) offers these.
func Languages() []string { return locale.Languages() }

// ClientText is the text a Discord client draws around nimbot's messages,
// in its user's language: a timestamp's words (nimbot writes the markup
// <t:…:R> and each client reads it as "in 5 minutes" in its own
// language), the note under an ephemeral answer, the mark of a disabled
// button. nimbot's messages never carry it; a transport that stands in for
// the client, as the terminal does, prints it. It lives here, beside the
// markup it reads, so the terminal needs no catalog of its own. The zero
// ClientText speaks English.
type ClientText struct {
	lang *locale.Printer
}

// ClientTextFor returns the client's text for a Discord locale, chosen as
// the rest of nimbot chooses a language ("es-419" reads Spanish, an
// unknown locale English).
func ClientTextFor(discordLocale string) ClientText {
	return ClientText{lang: locale.For(discordLocale)}
}

func (c ClientText) printer() *locale.Printer {
	if c.lang == nil {
		return locale.For(English)
	}
	return c.lang
}

// Relative words the time d from now as Discord's relative timestamps do,
// in whole units: seconds under a minute, minutes under an hour, hours
// under two days, days beyond ("in 59 minutes", "3 minutes ago").
func (c ClientText) Relative(d time.Duration) string {
	past := d < 0
	if past {
		d = -d
	}
	var n int64
	var unit string
	switch {
	case d < time.Minute:
		n, unit = int64(d/time.Second), "seconds"
	case d < time.Hour:
		n, unit = int64(d/time.Minute), "minutes"
	case d < 48*time.Hour:
		n, unit = int64(d/time.Hour), "hours"
	default:
		n, unit = int64(d/(24*time.Hour)), "days"
	}
	id := "client.time.in_" + unit
	if past {
		id = "client.time." + unit + "_ago"
	}
	return c.printer().T(id, "Count", n)
}

// Time writes the moment t in UTC with its date, as the language writes
// dates ("2026-11-22 04:00 UTC", "22.11.2026, 04:00 UTC"): the other
// timestamp styles (<t:…:f>), where Discord shows a date and a time.
func (c ClientText) Time(t time.Time) string {
	t = t.UTC()
	return c.printer().T("client.time.at",
		"Year", t.Format("2006"), "Month", t.Format("01"), "Day", t.Format("02"), "Time", t.Format("15:04"))
}

// Ephemeral is the note on an answer only its reader sees, in
// parentheses: "(only you can see this)".
func (c ClientText) Ephemeral() string { return c.printer().T("client.ephemeral") }

// Disabled marks a button or menu that cannot be used: "(disabled)".
func (c ClientText) Disabled() string { return c.printer().T("client.disabled") }

// Default marks a menu's option chosen before the user picks:
// "(default)".
func (c ClientText) Default() string { return c.printer().T("client.default") }
