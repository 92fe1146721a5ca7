package terminal

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"nimbot/commands"
)

// item is one numbered component of the board: what typing its number
// presses.
type item struct {
	n         int
	component discordgo.MessageComponent // *discordgo.Button or *discordgo.SelectMenu
}

// renderer prints Discord messages as plain text.
type renderer struct {
	// names maps user ids to the names mentions print as.
	names map[string]string
	// now is the clock relative timestamps (<t:…:R>) count from.
	now func() time.Time
	// client is what Discord's client would draw around the messages (a
	// timestamp's words, "(only you can see this)"), in the session's
	// language, as a Discord user with that language sees it.
	client commands.ClientText
}

var (
	mentionRe   = regexp.MustCompile(`<@!?(\d+)>`)
	timestampRe = regexp.MustCompile(`<t:(-?\d+)(?::([tTdDfFR]))?>`)
	emojiRe     = regexp.MustCompile(`<a?:(\w+):\d+>`)
	fenceRe     = regexp.MustCompile("(?m)^```[a-z]*\n?")
	subtextRe   = regexp.MustCompile(`(?m)^-# `)
	// markupRe finds bold and code markers, and backslash escapes (Discord
	// shows the escaped punctuation alone: how echoed user text is written).
	markupRe = regexp.MustCompile("\\\\[!-/:-@\\[-`{-~]|\\*\\*|`")
)

// text turns Discord markdown into terminal text: mentions become @names,
// timestamps become times, custom emoji their :name:, code fences and bold
// markers go (the monospace they ask for is what a terminal has anyway), and
// escaped punctuation shows as itself.
func (r renderer) text(s string) string {
	s = mentionRe.ReplaceAllStringFunc(s, func(m string) string {
		id := mentionRe.FindStringSubmatch(m)[1]
		if n, ok := r.names[id]; ok {
			return "@" + n
		}
		return "@" + id
	})
	s = timestampRe.ReplaceAllStringFunc(s, func(m string) string {
		sub := timestampRe.FindStringSubmatch(m)
		sec, err := strconv.ParseInt(sub[1], 10, 64)
		if err != nil {
			return m
		}
		at := time.Unix(sec, 0).UTC()
		if sub[2] == "R" && r.now != nil {
			return r.client.Relative(at.Sub(r.now()))
		}
		return r.client.Time(at)
	})
	s = emojiRe.ReplaceAllString(s, ":$1:")
	s = fenceRe.ReplaceAllString(s, "")
	s = subtextRe.ReplaceAllString(s, "")
	s = markupRe.ReplaceAllStringFunc(s, func(m string) string {
		if m[0] == '\\' {
			return m[1:]
		}
		return ""
	})
	return strings.TrimRight(s, "\n")
}

// message prints m: content, embeds, then its components numbered from 1.
// It returns the numbered components, which typing a number presses.
func (r renderer) message(w io.Writer, m *discordgo.Message, ephemeral bool, heading string) []item {
	if ephemeral {
		heading += " " + r.client.Ephemeral()
	}
	fmt.Fprintf(w, "--- %s ---\n", heading)
	if m.Content != "" {
		fmt.Fprintln(w, r.text(m.Content))
	}
	for _, e := range m.Embeds {
		r.embed(w, e)
	}
	items := r.components(w, m.Components)
	fmt.Fprintln(w)
	return items
}

func (r renderer) embed(w io.Writer, e *discordgo.MessageEmbed) {
	if e == nil {
		return
	}
	if e.Author != nil && e.Author.Name != "" {
		fmt.Fprintln(w, r.text(e.Author.Name))
	}
	if e.Title != "" {
		fmt.Fprintf(w, "== %s ==\n", r.text(e.Title))
	}
	if e.Description != "" {
		fmt.Fprintln(w, r.text(e.Description))
	}
	for _, f := range e.Fields {
		if f == nil {
			continue
		}
		name, value := r.text(f.Name), r.text(f.Value)
		if strings.Contains(value, "\n") {
			fmt.Fprintf(w, "%s:\n  %s\n", name, strings.ReplaceAll(value, "\n", "\n  "))
		} else {
			fmt.Fprintf(w, "%s: %s\n", name, value)
		}
	}
	if e.Footer != nil && e.Footer.Text != "" {
		fmt.Fprintf(w, "(%s)\n", r.text(e.Footer.Text))
	}
}

// components prints each action row on a line, numbering the buttons and
// menus in reading order.
func (r renderer) components(w io.Writer, rows []discordgo.MessageComponent) []item {
	var items []item
	for _, row := range rows {
		var inner []discordgo.MessageComponent
		switch x := row.(type) {
		case *discordgo.ActionsRow:
			inner = x.Components
		case discordgo.ActionsRow:
			inner = x.Components
		default:
			inner = []discordgo.MessageComponent{row}
		}
		var cells []string
		for _, c := range inner {
			switch x := c.(type) {
			case *discordgo.Button:
				items = append(items, item{len(items) + 1, x})
				cells = append(cells, fmt.Sprintf("[%d] %s", len(items), r.buttonLabel(x)))
			case *discordgo.SelectMenu:
				items = append(items, item{len(items) + 1, x})
				cells = append(cells, fmt.Sprintf("[%d] %s", len(items), r.menuLabel(x)))
			case *discordgo.TextDisplay:
				cells = append(cells, r.text(x.Content))
			}
		}
		if len(cells) > 0 {
			fmt.Fprintln(w, strings.Join(cells, "  "))
		}
	}
	return items
}

func (r renderer) buttonLabel(b *discordgo.Button) string {
	label := b.Label
	if b.Emoji != nil && b.Emoji.Name != "" {
		if label == "" {
			label = b.Emoji.Name
		} else {
			label = b.Emoji.Name + " " + label
		}
	}
	if label == "" {
		label = r.client.Terminal("button")
	}
	if b.Style == discordgo.LinkButton {
		label += " <" + b.URL + ">"
	}
	if b.Disabled {
		label += " " + r.client.Disabled()
	}
	return label
}

func (r renderer) menuLabel(s *discordgo.SelectMenu) string {
	label := s.Placeholder
	if label == "" {
		label = r.client.Terminal("choose")
	}
	label += " ▾"
	var chosen []string
	for _, o := range s.Options {
		if o.Default {
			chosen = append(chosen, o.Label)
		}
	}
	if len(chosen) > 0 {
		label += " " + strings.Join(chosen, ", ")
	}
	if s.Disabled {
		label += " " + r.client.Disabled()
	}
	return label
}

// menuOptions lists a string select's options numbered from 1.
func (r renderer) menuOptions(w io.Writer, s *discordgo.SelectMenu) {
	for i, o := range s.Options {
		line := fmt.Sprintf("  (%d) %s", i+1, o.Label)
		if o.Description != "" {
			line += " — " + o.Description
		}
		if o.Default {
			line += " " + r.client.Default()
		}
		fmt.Fprintln(w, line)
	}
}
