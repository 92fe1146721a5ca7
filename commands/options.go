package commands

import (
	"math"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// options are a subcommand's options by name. The accessors never panic on
// a payload of the wrong shape (discordgo's do): a missing or mistyped
// option reads as its zero value.
type options map[string]*discordgo.ApplicationCommandInteractionDataOption

// subOptions returns the options of the invoked subcommand.
func subOptions(i *discordgo.Interaction) options {
	o := options{}
	d := i.ApplicationCommandData()
	opts := d.Options
	for len(opts) == 1 && opts[0] != nil && isSubcommand(opts[0]) {
		opts = opts[0].Options
	}
	for _, op := range opts {
		if op != nil {
			o[op.Name] = op
		}
	}
	return o
}

func (o options) has(name string) bool { return o[name] != nil && o[name].Value != nil }

func (o options) str(name string) string {
	if op := o[name]; op != nil {
		switch v := op.Value.(type) {
		case string:
			return v
		case float64:
			return strconv.FormatFloat(v, 'f', -1, 64)
		case bool:
			return strconv.FormatBool(v)
		}
	}
	return ""
}

func (o options) int(name string) int64 {
	if op := o[name]; op != nil {
		switch v := op.Value.(type) {
		case float64:
			if v >= math.MinInt64 && v <= math.MaxInt64 {
				return int64(v)
			}
		case string:
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
}

func (o options) bool(name string) bool {
	if op := o[name]; op != nil {
		if v, ok := op.Value.(bool); ok {
			return v
		}
	}
	return false
}

// boolOr is the option's value, or def when it was not given.
func (o options) boolOr(name string, def bool) bool {
	if !o.has(name) {
		return def
	}
	return o.bool(name)
}

// focused returns the option being typed in an autocomplete interaction.
func (o options) focused() (string, string) {
	for name, op := range o {
		if op.Focused {
			return name, o.str(name)
		}
	}
	return "", ""
}
