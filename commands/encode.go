package commands

import (
	"encoding/json"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// The JSON of a response, written directly for the shapes nimbot sends.
//
// encoding/json spends most of a board's encoding in discordgo's
// MarshalJSON methods: every ActionsRow, Button and SelectMenu marshals
// itself again through an alias type (to add its "type"), and
// encoding/json then re-scans and compacts the bytes each one returns, at
// every level of nesting. appendResponse writes the same bytes in one pass.
// It knows exactly the fields of the discordgo types nimbot fills (embeds
// with a footer, author and fields; action rows of buttons, select menus
// and text inputs; allowed mentions) and gives up, leaving the response to
// encoding/json, on anything else: autocomplete choices, attachments,
// polls, an embed's media, a select menu's default values or channel
// types, a nil or unknown component. Its output is byte for byte
// encoding/json's, which the tests check for every response the commands
// tests produce and every board in every language (checkEncoding).

// encodeResponse is the JSON of a response, as it is saved and sent.
func encodeResponse(resp *discordgo.InteractionResponse) ([]byte, error) {
	buf := encodeBufs.Get().(*[]byte)
	defer encodeBufs.Put(buf)
	b, ok := appendResponse((*buf)[:0], resp)
	if !ok {
		return json.Marshal(resp)
	}
	if cap(b) <= maxEncodeBuf {
		*buf = b
	}
	// The caller keeps the bytes (saved, written out): a copy of just their size.
	return append([]byte(nil), b...), nil
}

// encodeBufs are scratch buffers for encodeResponse, so a response is
// written without growing a slice from nothing; one that grew past
// maxEncodeBuf (a board is 2–8 KB) is not kept.
var encodeBufs = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

const maxEncodeBuf = 64 << 10

// appendResponse appends resp's JSON to b; ok is false when resp holds
// something it does not write (see above), and b is then to be dropped.
func appendResponse(b []byte, resp *discordgo.InteractionResponse) (_ []byte, ok bool) {
	if resp == nil {
		return append(b, "null"...), true
	}
	b = append(b, '{')
	comma := false
	if resp.Type != 0 {
		b = append(b, `"type":`...)
		b = strconv.AppendUint(b, uint64(resp.Type), 10)
		comma = true
	}
	if d := resp.Data; d != nil {
		if comma {
			b = append(b, ',')
		}
		b = append(b, `"data":`...)
		if b, ok = appendData(b, d); !ok {
			return b, false
		}
	}
	return append(b, '}'), true
}

// appendData writes InteractionResponseData: tts, content, components and
// embeds always, the rest when set (omitempty).
func appendData(b []byte, d *discordgo.InteractionResponseData) (_ []byte, ok bool) {
	if d.Attachments != nil || d.Poll != nil || len(d.Choices) > 0 {
		return b, false
	}
	b = append(b, `{"tts":`...)
	b = strconv.AppendBool(b, d.TTS)
	b = append(b, `,"content":`...)
	b = appendString(b, d.Content)
	b = append(b, `,"components":`...)
	if b, ok = appendComponents(b, d.Components); !ok {
		return b, false
	}
	b = append(b, `,"embeds":`...)
	if d.Embeds == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for k, e := range d.Embeds {
			if k > 0 {
				b = append(b, ',')
			}
			if b, ok = appendEmbed(b, e); !ok {
				return b, false
			}
		}
		b = append(b, ']')
	}
	if m := d.AllowedMentions; m != nil {
		b = append(b, `,"allowed_mentions":{"parse":`...)
		if m.Parse == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, '[')
			for k, p := range m.Parse {
				if k > 0 {
					b = append(b, ',')
				}
				b = appendString(b, string(p))
			}
			b = append(b, ']')
		}
		b = appendStrings(b, `,"roles":`, m.Roles)
		b = appendStrings(b, `,"users":`, m.Users)
		b = append(b, `,"replied_user":`...)
		b = strconv.AppendBool(b, m.RepliedUser)
		b = append(b, '}')
	}
	if d.Flags != 0 {
		b = append(b, `,"flags":`...)
		b = strconv.AppendInt(b, int64(d.Flags), 10)
	}
	b = appendOmitString(b, `,"custom_id":`, d.CustomID)
	b = appendOmitString(b, `,"title":`, d.Title)
	return append(b, '}'), true
}

// appendEmbed writes a MessageEmbed whose media (image, thumbnail, video,
// provider) are unset; every field is omitempty.
func appendEmbed(b []byte, e *discordgo.MessageEmbed) (_ []byte, ok bool) {
	if e == nil {
		return append(b, "null"...), true
	}
	if e.Image != nil || e.Thumbnail != nil || e.Video != nil || e.Provider != nil {
		return b, false
	}
	start := len(b)
	b = append(b, '{')
	b = appendOmitString(b, `,"url":`, e.URL)
	b = appendOmitString(b, `,"type":`, string(e.Type))
	b = appendOmitString(b, `,"title":`, e.Title)
	b = appendOmitString(b, `,"description":`, e.Description)
	b = appendOmitString(b, `,"timestamp":`, e.Timestamp)
	if e.Color != 0 {
		b = append(b, `,"color":`...)
		b = strconv.AppendInt(b, int64(e.Color), 10)
	}
	if f := e.Footer; f != nil {
		b = append(b, `,"footer":{`...)
		at := len(b)
		b = appendOmitString(b, `,"text":`, f.Text)
		b = appendOmitString(b, `,"icon_url":`, f.IconURL)
		b = appendOmitString(b, `,"proxy_icon_url":`, f.ProxyIconURL)
		b = dropLeadingComma(b, at)
		b = append(b, '}')
	}
	if a := e.Author; a != nil {
		b = append(b, `,"author":{`...)
		at := len(b)
		b = appendOmitString(b, `,"url":`, a.URL)
		b = append(b, `,"name":`...)
		b = appendString(b, a.Name)
		b = appendOmitString(b, `,"icon_url":`, a.IconURL)
		b = appendOmitString(b, `,"proxy_icon_url":`, a.ProxyIconURL)
		b = dropLeadingComma(b, at)
		b = append(b, '}')
	}
	if len(e.Fields) > 0 {
		b = append(b, `,"fields":[`...)
		for k, f := range e.Fields {
			if k > 0 {
				b = append(b, ',')
			}
			if f == nil {
				b = append(b, "null"...)
				continue
			}
			b = append(b, `{"name":`...)
			b = appendString(b, f.Name)
			b = append(b, `,"value":`...)
			b = appendString(b, f.Value)
			if f.Inline {
				b = append(b, `,"inline":true`...)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = dropLeadingComma(b, start+1)
	return append(b, '}'), true
}

// appendComponents writes a list of components as discordgo's MarshalJSON
// methods do: the type's fields in order, then "type".
func appendComponents(b []byte, cs []discordgo.MessageComponent) (_ []byte, ok bool) {
	if cs == nil {
		return append(b, "null"...), true
	}
	b = append(b, '[')
	for k, c := range cs {
		if k > 0 {
			b = append(b, ',')
		}
		if b, ok = appendComponent(b, c); !ok {
			return b, false
		}
	}
	return append(b, ']'), true
}

func appendComponent(b []byte, c discordgo.MessageComponent) (_ []byte, ok bool) {
	// Saved answers come back decoded as pointers; a nil one is left to
	// encoding/json.
	switch v := c.(type) {
	case *discordgo.ActionsRow:
		if v == nil {
			return b, false
		}
		c = *v
	case *discordgo.Button:
		if v == nil {
			return b, false
		}
		c = *v
	case *discordgo.SelectMenu:
		if v == nil {
			return b, false
		}
		c = *v
	case *discordgo.TextInput:
		if v == nil {
			return b, false
		}
		c = *v
	}
	switch v := c.(type) {
	case nil:
		return append(b, "null"...), true
	case discordgo.ActionsRow:
		b = append(b, `{"components":`...)
		if b, ok = appendComponents(b, v.Components); !ok {
			return b, false
		}
		b = appendOmitInt(b, `,"id":`, v.ID)
		b = append(b, `,"type":`...)
		b = strconv.AppendUint(b, uint64(v.Type()), 10)
		return append(b, '}'), true
	case discordgo.Button:
		if v.Style == 0 {
			v.Style = discordgo.PrimaryButton // as Button.MarshalJSON does
		}
		b = append(b, `{"label":`...)
		b = appendString(b, v.Label)
		b = append(b, `,"style":`...)
		b = strconv.AppendUint(b, uint64(v.Style), 10)
		b = append(b, `,"disabled":`...)
		b = strconv.AppendBool(b, v.Disabled)
		if v.Emoji != nil {
			b = append(b, `,"emoji":`...)
			b = appendEmoji(b, v.Emoji)
		}
		b = appendOmitString(b, `,"url":`, v.URL)
		b = appendOmitString(b, `,"custom_id":`, v.CustomID)
		b = appendOmitString(b, `,"sku_id":`, v.SKUID)
		b = appendOmitInt(b, `,"id":`, v.ID)
		b = append(b, `,"type":`...)
		b = strconv.AppendUint(b, uint64(v.Type()), 10)
		return append(b, '}'), true
	case discordgo.SelectMenu:
		if len(v.DefaultValues) > 0 || len(v.ChannelTypes) > 0 {
			return b, false
		}
		// The menu's own "type" field (MenuType) is shadowed by the one
		// MarshalJSON adds, which comes last.
		b = append(b, '{')
		at := len(b)
		b = appendOmitString(b, `,"custom_id":`, v.CustomID)
		b = append(b, `,"placeholder":`...)
		b = appendString(b, v.Placeholder)
		b = dropLeadingComma(b, at)
		if v.MinValues != nil {
			b = append(b, `,"min_values":`...)
			b = strconv.AppendInt(b, int64(*v.MinValues), 10)
		}
		b = appendOmitInt(b, `,"max_values":`, v.MaxValues)
		if len(v.Options) > 0 {
			b = append(b, `,"options":[`...)
			for k, o := range v.Options {
				if k > 0 {
					b = append(b, ',')
				}
				b = append(b, '{')
				at := len(b)
				b = appendOmitString(b, `,"label":`, o.Label)
				b = append(b, `,"value":`...)
				b = appendString(b, o.Value)
				b = dropLeadingComma(b, at)
				b = append(b, `,"description":`...)
				b = appendString(b, o.Description)
				if o.Emoji != nil {
					b = append(b, `,"emoji":`...)
					b = appendEmoji(b, o.Emoji)
				}
				b = append(b, `,"default":`...)
				b = strconv.AppendBool(b, o.Default)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		b = append(b, `,"disabled":`...)
		b = strconv.AppendBool(b, v.Disabled)
		b = appendOmitInt(b, `,"id":`, v.ID)
		b = append(b, `,"type":`...)
		b = strconv.AppendUint(b, uint64(v.Type()), 10)
		return append(b, '}'), true
	case discordgo.TextInput:
		b = append(b, `{"custom_id":`...)
		b = appendString(b, v.CustomID)
		b = append(b, `,"label":`...)
		b = appendString(b, v.Label)
		b = append(b, `,"style":`...)
		b = strconv.AppendUint(b, uint64(v.Style), 10)
		b = appendOmitString(b, `,"placeholder":`, v.Placeholder)
		b = appendOmitString(b, `,"value":`, v.Value)
		b = append(b, `,"required":`...)
		b = strconv.AppendBool(b, v.Required)
		b = appendOmitInt(b, `,"min_length":`, v.MinLength)
		b = appendOmitInt(b, `,"max_length":`, v.MaxLength)
		b = appendOmitInt(b, `,"id":`, v.ID)
		b = append(b, `,"type":`...)
		b = strconv.AppendUint(b, uint64(v.Type()), 10)
		return append(b, '}'), true
	}
	return b, false
}

func appendEmoji(b []byte, e *discordgo.ComponentEmoji) []byte {
	b = append(b, '{')
	at := len(b)
	b = appendOmitString(b, `,"name":`, e.Name)
	b = appendOmitString(b, `,"id":`, e.ID)
	if e.Animated {
		b = append(b, `,"animated":true`...)
	}
	b = dropLeadingComma(b, at)
	return append(b, '}')
}

// appendOmitString writes key (`,"name":`) and s unless s is empty.
func appendOmitString(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	return appendString(append(b, key...), s)
}

// appendOmitInt writes key (`,"name":`) and n unless n is 0.
func appendOmitInt(b []byte, key string, n int) []byte {
	if n == 0 {
		return b
	}
	return strconv.AppendInt(append(b, key...), int64(n), 10)
}

// appendStrings writes key and ss unless ss is empty (omitempty).
func appendStrings(b []byte, key string, ss []string) []byte {
	if len(ss) == 0 {
		return b
	}
	b = append(b, key...)
	b = append(b, '[')
	for k, s := range ss {
		if k > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// dropLeadingComma removes the comma at b[at], if any: an object whose
// first fields are omitempty starts with whichever is written first.
func dropLeadingComma(b []byte, at int) []byte {
	if len(b) > at && b[at] == ',' {
		return append(b[:at], b[at+1:]...)
	}
	return b
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string exactly as encoding/json does with
// its default HTML escaping: ", \ and control characters escaped (\b, \f,
// \n, \r, \t by name, the rest as \u00XX), <, > and & as \u003c, \u003e
// and \u0026, U+2028 and U+2029 escaped, and each byte of invalid UTF-8
// replaced by \ufffd.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
