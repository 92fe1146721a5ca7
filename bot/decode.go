package bot

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// decodeInteraction decodes an interaction as discordgo.Interaction's own
// UnmarshalJSON does (the data by the interaction's type), except that the
// attached message keeps only its id, channel, flags and its components'
// custom ids (messageRef): building the board's embeds and components into
// discordgo types was the largest part of decoding a click, for fields
// nothing reads.
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
// (or a modal opened from): that there is one, its id, its channel, its
// flags (a click on an ephemeral hint's own buttons updates the hint; on
// any other message it must not) and its components' custom ids, which say
// whose board it is (a click may carry any custom_id, but the message's
// components are Discord's: the product redraws a message only if it is a
// board of the clicked game). The rest of it, the board's embeds and its
// components' labels and options, Discord sends back with every click and
// the product never reads.
type messageRef struct {
	ID         string                 `json:"id"`
	ChannelID  string                 `json:"channel_id"`
	Flags      discordgo.MessageFlags `json:"flags"`
	Components []componentRef         `json:"components"`
}

// componentRef is what nimbot reads of a message's component: its type, its
// custom id, and the components an action row holds.
type componentRef struct {
	Type       discordgo.ComponentType `json:"type"`
	CustomID   string                  `json:"custom_id"`
	Components []componentRef          `json:"components"`
}

// messageComponents is refs as discordgo components: the action rows, each
// with its buttons and select menus carrying only their custom ids (and a
// menu its type). Any other component is left out.
func messageComponents(refs []componentRef) []discordgo.MessageComponent {
	var rows []discordgo.MessageComponent
	for _, row := range refs {
		if row.Type != discordgo.ActionsRowComponent {
			continue
		}
		var cs []discordgo.MessageComponent
		for _, c := range row.Components {
			switch c.Type {
			case discordgo.ButtonComponent:
				cs = append(cs, &discordgo.Button{CustomID: c.CustomID})
			case discordgo.SelectMenuComponent, discordgo.UserSelectMenuComponent, discordgo.RoleSelectMenuComponent,
				discordgo.MentionableSelectMenuComponent, discordgo.ChannelSelectMenuComponent:
				cs = append(cs, &discordgo.SelectMenu{MenuType: discordgo.SelectMenuType(c.Type), CustomID: c.CustomID})
			}
		}
		rows = append(rows, &discordgo.ActionsRow{Components: cs})
	}
	return rows
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
		i.Message = &discordgo.Message{ID: v.Message.ID, ChannelID: v.Message.ChannelID, Flags: v.Message.Flags,
			Components: messageComponents(v.Message.Components)}
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
// valid UTF-8 string, a small decimal, a literal), member, user and the
// integration owners field by field, and the other nested values (data
// but a click's, entitlements) by encoding/json on their own bytes, which
// decodes them exactly as it does inside the whole.
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
	var strs strArena
	sawComponents := false
	s := scanner{b: body}
	ok := s.object(0, func(key []byte) bool {
		var buf fieldName
		name := buf.fold(key)
		switch string(name) {
		case "message":
			return s.message(&strs, &v.Message, &sawComponents)
		case "member":
			return s.member(&strs, 1, &v.Member)
		case "user":
			return s.user(&strs, 1, &v.User)
		}
		start := s.p
		if !s.skip(1) {
			return false
		}
		val := body[start:s.p]
		switch string(name) {
		case "id":
			return setString(&strs, val, &v.ID)
		case "application_id":
			return setString(&strs, val, &v.AppID)
		case "type":
			return setUint(val, math.MaxUint8, &v.Type)
		case "data":
			data = val
		case "guild_id":
			return setString(&strs, val, &v.GuildID)
		case "channel_id":
			return setString(&strs, val, &v.ChannelID)
		case "app_permissions":
			// Tagged ",string": a quoted decimal; anything else is
			// left to decodeStd.
			return setQuotedInt64(val, &v.AppPermissions)
		case "locale":
			return setString(&strs, val, &v.Locale)
		case "guild_locale":
			if val[0] != '"' {
				return unmarshalInto(val, &v.GuildLocale)
			}
			if v.GuildLocale == nil {
				v.GuildLocale = new(discordgo.Locale)
			}
			return setString(&strs, val, v.GuildLocale)
		case "context":
			return setUint(val, math.MaxUint, &v.Context)
		case "authorizing_integration_owners":
			return setOwners(&strs, val, &v.AuthorizingIntegrationOwners)
		case "token":
			return setString(&strs, val, &v.Token)
		case "version":
			return setUint(val, math.MaxInt, &v.Version)
		case "entitlements":
			if string(val) == "[]" { // what Discord sends, as encoding/json sets it
				v.Entitlements = []*discordgo.Entitlement{}
				return true
			}
			return unmarshalInto(val, &v.Entitlements)
		}
		return true
	})
	if !ok || !s.end() {
		return false
	}
	if v.Type == discordgo.InteractionMessageComponent {
		d, ok := componentData(&strs, data)
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
func componentData(strs *strArena, data []byte) (d discordgo.MessageComponentInteractionData, ok bool) {
	s := scanner{b: data}
	ok = s.object(0, func(key []byte) bool {
		start := s.p
		if !s.skip(1) {
			return false
		}
		val := data[start:s.p]
		switch {
		case asciiEqualFold(key, "custom_id"):
			return setString(strs, val, &d.CustomID)
		case asciiEqualFold(key, "component_type"):
			return setUint(val, math.MaxUint, &d.ComponentType)
		case asciiEqualFold(key, "values"):
			// Strings all through set every element, as when a
			// repeated array decodes into the one before.
			if values, ok := plainStrings(strs, val); ok {
				d.Values = values
				return true
			}
			return unmarshalInto(val, &d.Values)
		case asciiEqualFold(key, "resolved"):
			return unmarshalInto(val, &d.Resolved)
		}
		return true
	})
	return d, ok
}

// fieldName holds a plain key folded to lower case, as encoding/json
// matches it to a field (ASCII folding: plain keys are ASCII).
type fieldName [len("authorizing_integration_owners")]byte

// fold returns key in lower case, or nil when it is longer than any
// field's name (and so matches none).
func (f *fieldName) fold(key []byte) []byte {
	if len(key) > len(f) {
		return nil
	}
	for n, c := range key {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		f[n] = c
	}
	return f[:len(key)]
}

// member decodes the value at s.p, at depth, into *m as encoding/json
// does, or reports false: null sets it nil; an object decodes into the
// member there is (or a new one), field by field. Every click carries its
// member, and encoding/json's reflection over it (and its user) was about
// 40 % of decoding one.
func (s *scanner) member(strs *strArena, depth int, m **discordgo.Member) bool {
	if s.p < len(s.b) && s.b[s.p] == 'n' {
		*m = nil
		return s.skip(depth)
	}
	if *m == nil {
		*m = new(discordgo.Member)
	}
	mem := *m
	return s.object(depth, func(key []byte) bool {
		var buf fieldName
		name := buf.fold(key)
		if string(name) == "user" {
			return s.user(strs, depth+1, &mem.User)
		}
		start := s.p
		if !s.skip(depth + 1) {
			return false
		}
		val := s.b[start:s.p]
		switch string(name) {
		case "guild_id":
			return setString(strs, val, &mem.GuildID)
		case "joined_at":
			return mem.JoinedAt.UnmarshalJSON(val) == nil
		case "nick":
			return setString(strs, val, &mem.Nick)
		case "deaf":
			return setBool(val, &mem.Deaf)
		case "mute":
			return setBool(val, &mem.Mute)
		case "avatar":
			return setString(strs, val, &mem.Avatar)
		case "banner":
			return setString(strs, val, &mem.Banner)
		case "roles":
			return setStrings(strs, val, &mem.Roles)
		case "premium_since":
			return setTime(val, &mem.PremiumSince)
		case "flags":
			return setUint(val, math.MaxInt, &mem.Flags)
		case "pending":
			return setBool(val, &mem.Pending)
		case "permissions":
			return setQuotedInt64(val, &mem.Permissions)
		case "communication_disabled_until":
			return setTime(val, &mem.CommunicationDisabledUntil)
		}
		return true
	})
}

// user decodes the value at s.p, at depth, into *u as encoding/json does,
// or reports false (see member).
func (s *scanner) user(strs *strArena, depth int, u **discordgo.User) bool {
	if s.p < len(s.b) && s.b[s.p] == 'n' {
		*u = nil
		return s.skip(depth)
	}
	if *u == nil {
		*u = new(discordgo.User)
	}
	usr := *u
	return s.object(depth, func(key []byte) bool {
		start := s.p
		if !s.skip(depth + 1) {
			return false
		}
		val := s.b[start:s.p]
		var buf fieldName
		switch string(buf.fold(key)) {
		case "id":
			return setString(strs, val, &usr.ID)
		case "email":
			return setString(strs, val, &usr.Email)
		case "username":
			return setString(strs, val, &usr.Username)
		case "avatar":
			return setString(strs, val, &usr.Avatar)
		case "locale":
			return setString(strs, val, &usr.Locale)
		case "discriminator":
			return setString(strs, val, &usr.Discriminator)
		case "global_name":
			return setString(strs, val, &usr.GlobalName)
		case "token":
			return setString(strs, val, &usr.Token)
		case "verified":
			return setBool(val, &usr.Verified)
		case "mfa_enabled":
			return setBool(val, &usr.MFAEnabled)
		case "banner":
			return setString(strs, val, &usr.Banner)
		case "accent_color":
			return setUint(val, math.MaxInt, &usr.AccentColor)
		case "bot":
			return setBool(val, &usr.Bot)
		case "public_flags":
			return setUint(val, math.MaxInt, &usr.PublicFlags)
		case "premium_type":
			return setUint(val, math.MaxInt, &usr.PremiumType)
		case "system":
			return setBool(val, &usr.System)
		case "flags":
			return setUint(val, math.MaxInt, &usr.Flags)
		}
		return true
	})
}

// setOwners decodes a checked JSON value into an interaction's
// authorizing_integration_owners as encoding/json does, or reports false:
// null sets it nil; an object adds its members to the map there is (or a
// new one), each key a decimal (anything else is left to encoding/json)
// and each null value an empty string.
func setOwners(strs *strArena, val []byte, m *map[discordgo.ApplicationIntegrationType]string) bool {
	if val[0] == 'n' {
		*m = nil
		return true
	}
	if val[0] != '{' {
		return false
	}
	if *m == nil {
		*m = map[discordgo.ApplicationIntegrationType]string{}
	}
	owners := *m
	s := scanner{b: val}
	return s.object(0, func(key []byte) bool {
		n, ok := smallUint(key, math.MaxUint)
		if !ok {
			return false
		}
		start := s.p
		if !s.skip(1) {
			return false
		}
		var id string
		if !setString(strs, val[start:s.p], &id) {
			return false
		}
		owners[discordgo.ApplicationIntegrationType(n)] = id
		return true
	})
}

// setBool decodes a checked JSON value into a bool field as encoding/json
// does (null leaves it alone), or reports false.
func setBool(val []byte, dst *bool) bool {
	switch val[0] {
	case 't':
		*dst = true
	case 'f':
		*dst = false
	case 'n':
	default:
		return false
	}
	return true
}

// setTime decodes a checked JSON value into a *time.Time field as
// encoding/json does: null sets it nil; anything else goes to
// time.Time.UnmarshalJSON, as encoding/json hands it, in the time there is
// (or a new one).
func setTime(val []byte, dst **time.Time) bool {
	if val[0] == 'n' {
		*dst = nil
		return true
	}
	if *dst == nil {
		*dst = new(time.Time)
	}
	return (*dst).UnmarshalJSON(val) == nil
}

// setStrings decodes a checked JSON value into a []string field as
// encoding/json does when it is null or an array of plain strings (see
// plainStrings), or reports false.
func setStrings(strs *strArena, val []byte, dst *[]string) bool {
	if val[0] == 'n' {
		*dst = nil
		return true
	}
	ss, ok := plainStrings(strs, val)
	if ok {
		*dst = ss
	}
	return ok
}

// setQuotedInt64 decodes a checked JSON value into an int64 field tagged
// ",string" (a quoted decimal), or reports false for anything but a small
// quoted decimal, left to encoding/json.
func setQuotedInt64(val []byte, dst *int64) bool {
	if len(val) < 2 || val[0] != '"' {
		return false
	}
	n, ok := smallUint(val[1:len(val)-1], math.MaxInt64)
	if ok {
		*dst = int64(n)
	}
	return ok
}

// plainStrings decodes a checked JSON array of plain strings (see
// setString), reporting false for any other value.
func plainStrings(strs *strArena, val []byte) ([]string, bool) {
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
		out = append(out, strs.string(raw))
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
// *messageRef: null sets it nil, an object sets id, channel_id, flags and
// components in the message there is (or a new one) and skips the rest.
// Components a second time in one interaction (*sawComponents) are left to
// encoding/json, which decodes them into the slice it has, element by
// element.
func (s *scanner) message(strs *strArena, m **discordgo.Message, sawComponents *bool) bool {
	if s.p < len(s.b) && s.b[s.p] == 'n' {
		*m = nil
		return s.skip(1)
	}
	if *m == nil {
		*m = new(discordgo.Message)
	}
	msg := *m
	return s.object(1, func(key []byte) bool {
		if asciiEqualFold(key, "components") {
			if *sawComponents {
				return false
			}
			*sawComponents = true
			var refs []componentRef
			if !s.components(strs, 0, &refs) {
				return false
			}
			msg.Components = messageComponents(refs)
			return true
		}
		start := s.p
		if !s.skip(2) {
			return false
		}
		val := s.b[start:s.p]
		switch {
		case asciiEqualFold(key, "id"):
			return setString(strs, val, &msg.ID)
		case asciiEqualFold(key, "channel_id"):
			return setString(strs, val, &msg.ChannelID)
		case asciiEqualFold(key, "flags"):
			return setUint(val, math.MaxInt, &msg.Flags)
		}
		return true
	})
}

// maxComponentDepth is how deep decodeFast follows a message's components
// (an action row's components are the second level); deeper is left to
// encoding/json.
const maxComponentDepth = 4

// components decodes the components array or null at s.p as encoding/json
// decodes it into a new []componentRef, or reports false to leave it to
// encoding/json: anything but an array of objects and nulls, a "components"
// key repeated in one object (encoding/json decodes the second into the
// slice the first made), nesting deeper than maxComponentDepth.
func (s *scanner) components(strs *strArena, depth int, dst *[]componentRef) bool {
	s.ws()
	if s.p < len(s.b) && s.b[s.p] == 'n' {
		*dst = nil
		return s.literal("null")
	}
	if depth >= maxComponentDepth || !s.next('[') {
		return false
	}
	refs := []componentRef{}
	s.ws()
	if s.next(']') {
		*dst = refs
		return true
	}
	for {
		s.ws()
		var c componentRef
		if s.p < len(s.b) && s.b[s.p] == 'n' {
			if !s.literal("null") { // null leaves the element zero
				return false
			}
		} else {
			nested := false
			ok := s.object(2+2*depth, func(key []byte) bool {
				if asciiEqualFold(key, "components") {
					if nested {
						return false
					}
					nested = true
					return s.components(strs, depth+1, &c.Components)
				}
				start := s.p
				if !s.skip(3 + 2*depth) {
					return false
				}
				val := s.b[start:s.p]
				switch {
				case asciiEqualFold(key, "type"):
					return setUint(val, math.MaxInt, &c.Type)
				case asciiEqualFold(key, "custom_id"):
					return setString(strs, val, &c.CustomID)
				}
				return true
			})
			if !ok {
				return false
			}
		}
		refs = append(refs, c)
		s.ws()
		if s.next(']') {
			*dst = refs
			return true
		}
		if !s.next(',') {
			return false
		}
	}
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
		// Most bytes of a string need no look: step over them in a tight
		// loop (a string's scan was a fifth of decoding a click).
		b, p := s.b, s.p
		for p < len(b) && strPlain[b[p]] {
			p++
		}
		s.p = p
		if p == len(b) {
			break
		}
		c := b[p]
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

// strPlain marks the bytes a string may hold as they are: all but the
// closing quote, the backslash and the control characters.
var strPlain = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c != '"' && c != '\\'
	}
	return t
}()

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

// strArena makes the strings decodeFast decodes, slices of one buffer
// rather than an allocation each: a click's dozen or so ids, names and
// locales, and its token, were as many allocations as the rest of the
// decoding. A string keeps the whole buffer alive, so those a request
// keeps longer (a delayed fetch keeps ids and the token for FetchDelay)
// keep arenaChunk bytes: little next to the rest kept then.
type strArena struct {
	b strings.Builder
}

// arenaChunk is the size of an arena's buffer, enough for a click's strings
// but its token (Discord's run to a few hundred bytes); strings longer than
// arenaMax get their own allocation, as before.
const (
	arenaChunk = 320
	arenaMax   = 128
)

// string returns raw as a string. A strings.Builder never changes a byte
// it has written (its strings would change with it): the slices of what
// it held before each write stay valid.
func (a *strArena) string(raw []byte) string {
	if len(raw) == 0 {
		return ""
	}
	if len(raw) > arenaMax {
		return string(raw)
	}
	if a.b.Cap()-a.b.Len() < len(raw) {
		a.b = strings.Builder{}
		a.b.Grow(arenaChunk)
	}
	start := a.b.Len()
	a.b.Write(raw)
	return a.b.String()[start:]
}

// setString decodes a checked JSON value into a string field as
// encoding/json does: directly when it is a string encoding/json would
// take as it is (no escapes, valid UTF-8), null by leaving the field alone,
// otherwise through encoding/json (another kind of value is an error, left
// to decodeStd).
func setString[T ~string](strs *strArena, val []byte, dst *T) bool {
	if val[0] == 'n' { // null
		return true
	}
	if len(val) >= 2 && val[0] == '"' {
		if raw := val[1 : len(val)-1]; bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
			*dst = T(strs.string(raw))
			return true
		}
	}
	return unmarshalInto(val, dst)
}

// unmarshalInto decodes val into *dst with encoding/json, through a copy
// of *dst: encoding/json takes any, so the copy moves to the heap (only
// on this rare path) rather than dst, and with it the whole interaction
// or click data that every decodeFast would then allocate.
func unmarshalInto[T any](val []byte, dst *T) bool {
	t := *dst
	if json.Unmarshal(val, &t) != nil {
		return false
	}
	*dst = t
	return true
}

// setUint decodes a checked JSON value into an integer field as
// encoding/json does: directly when it is a decimal of at most max,
// otherwise through encoding/json.
func setUint[T ~uint8 | ~uint | ~int](val []byte, max uint64, dst *T) bool {
	if val[0] == 'n' { // null
		return true
	}
	if n, ok := smallUint(val, max); ok {
		*dst = T(n)
		return true
	}
	return unmarshalInto(val, dst)
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
