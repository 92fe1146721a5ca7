package bot

import (
	"bytes"
	"encoding/json"
	"math"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// decodeInteraction decodes an interaction as discordgo.Interaction's own
// UnmarshalJSON does (the data by the interaction's type), except that the
// attached message keeps only its id and channel: building the board's
// embeds and components into discordgo types was the largest part of
// decoding a click, for fields nothing reads.
//
// A request goes through decodeFast, which reads the interaction in one
// pass; whatever it leaves (invalid JSON, a key spelt with escapes or
// non-ASCII letters, a number or string it would have to think about) is
// decoded by decodeStd, the encoding/json path, which then also decides the
// refusal. The two give the same result for every input (FuzzDecodeInteraction).
func decodeInteraction(body []byte, i *discordgo.Interaction) error {
	if decodeFast(body, i) {
		return nil
	}
	return decodeStd(body, i)
}

// plainInteraction is discordgo.Interaction without its UnmarshalJSON, so
// decodeStd can decode the fields itself.
type plainInteraction discordgo.Interaction

// messageRef is what nimbot reads of the message a component was clicked on
// (or a modal opened from): that there is one, its id and its channel. The
// rest of it, the whole board with its embeds and components, Discord sends
// back with every click and the product never reads.
type messageRef struct {
	ID        string `json:"id"`
	ChannelID string `json:"channel_id"`
}

// decodeStd is decodeInteraction through encoding/json: the reference
// decodeFast must agree with, and the decoder for what decodeFast leaves.
func decodeStd(body []byte, i *discordgo.Interaction) error {
	var v struct {
		plainInteraction
		// These shadow the embedded fields of the same JSON names.
		Data    json.RawMessage `json:"data"`
		Message *messageRef     `json:"message"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		return err
	}
	*i = discordgo.Interaction(v.plainInteraction)
	if v.Message != nil {
		i.Message = &discordgo.Message{ID: v.Message.ID, ChannelID: v.Message.ChannelID}
	}
	return decodeData(i, v.Data)
}

// decodeData sets i.Data from its JSON by the interaction's type, as
// discordgo does.
func decodeData(i *discordgo.Interaction, data []byte) error {
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		var d discordgo.ApplicationCommandInteractionData
		if err := json.Unmarshal(data, &d); err != nil {
			return err
		}
		i.Data = d
	case discordgo.InteractionMessageComponent:
		var d discordgo.MessageComponentInteractionData
		if err := json.Unmarshal(data, &d); err != nil {
			return err
		}
		i.Data = d
	case discordgo.InteractionModalSubmit:
		var d discordgo.ModalSubmitInteractionData
		if err := json.Unmarshal(data, &d); err != nil {
			return err
		}
		i.Data = d
	}
	return nil
}

// decodeFast decodes body into *i as decodeStd would and reports true, or
// reports false, leaving *i alone, when it cannot be sure to: it never
// refuses anything itself. encoding/json checks the whole body before
// decoding, then walks it again value by value, board message included;
// here one pass checks the body and skips what nimbot never reads. The
// fields it reads are decoded by hand when they are plain (an unescaped
// valid UTF-8 string, a small decimal), the nested ones (data, member,
// user, entitlements, integration owners) by encoding/json on their own
// bytes, which decodes them exactly as it does inside the whole.
//
// What makes it agree with encoding/json: every value is checked against
// JSON's grammar (strings: no control characters, valid escapes; any bytes
// otherwise, as encoding/json replaces invalid UTF-8 rather than refusing);
// keys match fields case-insensitively and a repeated key decodes again into
// the same field (the last wins; into a pointer, map or slice already set it
// merges, as json.Unmarshal on the field does too); a key with an escape or
// a non-ASCII byte (which could fold to a field's name, as K to k) is left to
// encoding/json, as is nesting deeper than maxDepth.
func decodeFast(body []byte, i *discordgo.Interaction) bool {
	var v discordgo.Interaction
	var data []byte
	s := scanner{b: body}
	ok := s.object(0, func(key []byte) bool {
		var name [len("authorizing_integration_owners")]byte
		if len(key) > len(name) {
			return s.skip(1) // no field's name is this long
		}
		for n, c := range key {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			name[n] = c
		}
		if string(name[:len(key)]) == "message" {
			return s.message(&v.Message)
		}
		start := s.p
		if !s.skip(1) {
			return false
		}
		val := body[start:s.p]
		switch string(name[:len(key)]) {
		case "id":
			return setString(val, &v.ID)
		case "application_id":
			return setString(val, &v.AppID)
		case "type":
			return setUint(val, math.MaxUint8, &v.Type)
		case "data":
			data = val
		case "guild_id":
			return setString(val, &v.GuildID)
		case "channel_id":
			return setString(val, &v.ChannelID)
		case "app_permissions":
			// Tagged ",string": a quoted decimal; anything else is
			// left to decodeStd.
			if len(val) < 2 || val[0] != '"' {
				return false
			}
			n, ok := smallUint(val[1:len(val)-1], math.MaxInt64)
			v.AppPermissions = int64(n)
			return ok
		case "member":
			return json.Unmarshal(val, &v.Member) == nil
		case "user":
			return json.Unmarshal(val, &v.User) == nil
		case "locale":
			return setString(val, &v.Locale)
		case "guild_locale":
			if val[0] != '"' {
				return json.Unmarshal(val, &v.GuildLocale) == nil
			}
			if v.GuildLocale == nil {
				v.GuildLocale = new(discordgo.Locale)
			}
			return setString(val, v.GuildLocale)
		case "context":
			return setUint(val, math.MaxUint, &v.Context)
		case "authorizing_integration_owners":
			return json.Unmarshal(val, &v.AuthorizingIntegrationOwners) == nil
		case "token":
			return setString(val, &v.Token)
		case "version":
			return setUint(val, math.MaxInt, &v.Version)
		case "entitlements":
			if string(val) == "[]" { // what Discord sends, as encoding/json sets it
				v.Entitlements = []*discordgo.Entitlement{}
				return true
			}
			return json.Unmarshal(val, &v.Entitlements) == nil
		}
		return true
	})
	if !ok || !s.end() {
		return false
	}
	if v.Type == discordgo.InteractionMessageComponent {
		d, ok := componentData(data)
		if !ok {
			return false
		}
		v.Data = d
	} else if decodeData(&v, data) != nil {
		return false
	}
	*i = v
	return true
}

// componentData decodes a component click's data (a checked JSON value) as
// decodeData does, or reports false.
func componentData(data []byte) (d discordgo.MessageComponentInteractionData, ok bool) {
	s := scanner{b: data}
	ok = s.object(0, func(key []byte) bool {
		start := s.p
		if !s.skip(1) {
			return false
		}
		val := data[start:s.p]
		switch {
		case asciiEqualFold(key, "custom_id"):
			return setString(val, &d.CustomID)
		case asciiEqualFold(key, "component_type"):
			return setUint(val, math.MaxUint, &d.ComponentType)
		case asciiEqualFold(key, "values"):
			// Strings all through set every element, as when a
			// repeated array decodes into the one before.
			if values, ok := plainStrings(val); ok {
				d.Values = values
				return true
			}
			return json.Unmarshal(val, &d.Values) == nil
		case asciiEqualFold(key, "resolved"):
			return json.Unmarshal(val, &d.Resolved) == nil
		}
		return true
	})
	return d, ok
}

// plainStrings decodes a checked JSON array of plain strings (see
// setString), reporting false for any other value.
func plainStrings(val []byte) ([]string, bool) {
	s := scanner{b: val}
	if !s.next('[') {
		return nil, false
	}
	out := []string{}
	s.ws()
	if s.next(']') {
		return out, true
	}
	for {
		s.ws()
		raw, ok := s.str()
		if !ok || bytes.IndexByte(raw, '\\') >= 0 || !utf8.Valid(raw) {
			return nil, false
		}
		out = append(out, string(raw))
		s.ws()
		if s.next(']') {
			return out, true
		}
		if !s.next(',') {
			return nil, false
		}
	}
}

// message decodes the message object or null at s.p into *m as decodeStd's
// *messageRef: null sets it nil, an object sets id and channel_id in the
// message there is (or a new one) and skips the rest.
func (s *scanner) message(m **discordgo.Message) bool {
	if s.p < len(s.b) && s.b[s.p] == 'n' {
		*m = nil
		return s.skip(1)
	}
	if *m == nil {
		*m = new(discordgo.Message)
	}
	msg := *m
	return s.object(1, func(key []byte) bool {
		start := s.p
		if !s.skip(2) {
			return false
		}
		val := s.b[start:s.p]
		switch {
		case asciiEqualFold(key, "id"):
			return setString(val, &msg.ID)
		case asciiEqualFold(key, "channel_id"):
			return setString(val, &msg.ChannelID)
		}
		return true
	})
}

// maxDepth is how deep decodeFast follows arrays and objects; deeper is
// left to encoding/json (whose own limit is 10,000). Discord's interactions
// nest about 8 deep.
const maxDepth = 64

// scanner walks a JSON text, checking it against the grammar as it goes.
type scanner struct {
	b []byte
	p int // the next byte to read
}

// ws skips whitespace as JSON defines it.
func (s *scanner) ws() {
	for s.p < len(s.b) {
		switch s.b[s.p] {
		case ' ', '\t', '\n', '\r':
			s.p++
		default:
			return
		}
	}
}

// next reports whether the byte at s.p is c, and if so steps past it.
func (s *scanner) next(c byte) bool {
	if s.p < len(s.b) && s.b[s.p] == c {
		s.p++
		return true
	}
	return false
}

// end reports whether only whitespace is left.
func (s *scanner) end() bool {
	s.ws()
	return s.p == len(s.b)
}

// object reads an object at s.p (after whitespace): for each member, the
// key (its raw bytes, which are plain ASCII without escapes) is given to
// member with s.p at the value (whitespace skipped), which must read the
// value and report whether to go on. It reports false for anything invalid
// or left to encoding/json, including a value that is not an object.
func (s *scanner) object(depth int, member func(key []byte) bool) bool {
	s.ws()
	if depth >= maxDepth || !s.next('{') {
		return false
	}
	s.ws()
	if s.next('}') {
		return true
	}
	for {
		s.ws()
		key, ok := s.str()
		if !ok || !plainKey(key) {
			return false
		}
		s.ws()
		if !s.next(':') {
			return false
		}
		s.ws()
		if !member(key) {
			return false
		}
		s.ws()
		if s.next('}') {
			return true
		}
		if !s.next(',') {
			return false
		}
	}
}

// skip steps over one value at s.p (after whitespace), checking it, and
// reports whether it was valid (and not nested deeper than maxDepth).
func (s *scanner) skip(depth int) bool {
	s.ws()
	if s.p >= len(s.b) {
		return false
	}
	switch c := s.b[s.p]; {
	case c == '{':
		if depth >= maxDepth {
			return false
		}
		s.p++
		s.ws()
		if s.next('}') {
			return true
		}
		for {
			s.ws()
			if _, ok := s.str(); !ok {
				return false
			}
			s.ws()
			if !s.next(':') || !s.skip(depth+1) {
				return false
			}
			s.ws()
			if s.next('}') {
				return true
			}
			if !s.next(',') {
				return false
			}
		}
	case c == '[':
		if depth >= maxDepth {
			return false
		}
		s.p++
		s.ws()
		if s.next(']') {
			return true
		}
		for {
			if !s.skip(depth + 1) {
				return false
			}
			s.ws()
			if s.next(']') {
				return true
			}
			if !s.next(',') {
				return false
			}
		}
	case c == '"':
		_, ok := s.str()
		return ok
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		return s.number()
	}
	return false
}

// literal steps over lit if it is at s.p.
func (s *scanner) literal(lit string) bool {
	if !bytes.HasPrefix(s.b[s.p:], []byte(lit)) {
		return false
	}
	s.p += len(lit)
	return true
}

// number steps over a number at s.p: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() bool {
	s.next('-')
	if !s.next('0') {
		if s.p >= len(s.b) || s.b[s.p] < '1' || s.b[s.p] > '9' {
			return false
		}
		s.digits()
	}
	if s.next('.') && !s.digits() {
		return false
	}
	if s.next('e') || s.next('E') {
		if !s.next('+') {
			s.next('-')
		}
		if !s.digits() {
			return false
		}
	}
	return true
}

// digits steps over decimal digits and reports whether there was one.
func (s *scanner) digits() bool {
	start := s.p
	for s.p < len(s.b) && '0' <= s.b[s.p] && s.b[s.p] <= '9' {
		s.p++
	}
	return s.p > start
}

// str steps over a string at s.p and returns its raw bytes between the
// quotes, escapes undecoded; ok is false if it is not a valid string.
func (s *scanner) str() (raw []byte, ok bool) {
	if !s.next('"') {
		return nil, false
	}
	start := s.p
	for s.p < len(s.b) {
		c := s.b[s.p]
		switch {
		case c == '"':
			s.p++
			return s.b[start : s.p-1], true
		case c < 0x20:
			return nil, false
		case c == '\\':
			s.p++
			if s.p >= len(s.b) {
				return nil, false
			}
			switch s.b[s.p] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.p++
			case 'u':
				s.p++
				for range 4 {
					if s.p >= len(s.b) || !isHex(s.b[s.p]) {
						return nil, false
					}
					s.p++
				}
			default:
				return nil, false
			}
		default:
			s.p++
		}
	}
	return nil, false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// plainKey reports whether a key's raw bytes are printable ASCII without
// escapes, so that matching it to a field is ASCII case folding; any other
// key might match by Unicode folding or after unescaping.
func plainKey(raw []byte) bool {
	for _, c := range raw {
		if c == '\\' || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// asciiEqualFold reports whether the plain key equals name (lower case)
// up to ASCII case.
func asciiEqualFold(key []byte, name string) bool {
	if len(key) != len(name) {
		return false
	}
	for n, c := range key {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != name[n] {
			return false
		}
	}
	return true
}

// setString decodes a checked JSON value into a string field as
// encoding/json does: directly when it is a string encoding/json would
// take as it is (no escapes, valid UTF-8), otherwise through encoding/json
// (null leaves the field alone; another kind of value is an error, left to
// decodeStd).
func setString[T ~string](val []byte, dst *T) bool {
	if len(val) >= 2 && val[0] == '"' {
		if raw := val[1 : len(val)-1]; bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
			*dst = T(raw)
			return true
		}
	}
	return json.Unmarshal(val, dst) == nil
}

// setUint decodes a checked JSON value into an integer field as
// encoding/json does: directly when it is a decimal of at most max,
// otherwise through encoding/json.
func setUint[T ~uint8 | ~uint | ~int](val []byte, max uint64, dst *T) bool {
	if n, ok := smallUint(val, max); ok {
		*dst = T(n)
		return true
	}
	return json.Unmarshal(val, dst) == nil
}

// smallUint reads digits as a number of at most 18 digits without leading
// zeros, up to max.
func smallUint(digits []byte, max uint64) (uint64, bool) {
	if len(digits) == 0 || len(digits) > 18 || digits[0] == '0' && len(digits) > 1 {
		return 0, false
	}
	var n uint64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	return n, n <= max
}
