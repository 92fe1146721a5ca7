package commands

import (
	"fmt"
	"unicode/utf16"

	"github.com/bwmarrin/discordgo"
)

// Discord's limits on what an interaction response may carry. Where the
// published schema states a limit, the number is copied from
// ../shared/discord-openapi/openapi.json (discord-api-spec, specs/openapi.json)
// and the schema and property are named; the others come from Discord's
// documentation, which the schema does not encode.
const (
	// IncomingWebhookInteractionRequest / ...UpdateForInteractionCallbackRequestPartial.
	limContent = 2000 // content maxLength
	limEmbeds  = 10   // embeds maxItems
	// RichEmbed and its parts.
	limEmbedTitle  = 256  // RichEmbed.title maxLength
	limEmbedDesc   = 4096 // RichEmbed.description maxLength
	limEmbedFields = 25   // RichEmbed.fields maxItems
	limFieldName   = 256  // RichEmbedField.name maxLength
	limFieldValue  = 1024 // RichEmbedField.value maxLength
	limFooter      = 2048 // RichEmbedFooter.text maxLength
	limAuthor      = 256  // RichEmbedAuthor.name maxLength
	limEmbedTotal  = 6000 // documentation ("Embed Limits"): all embeds of a message together
	// Components.
	limRows        = 5   // documentation: at most five action rows per message or modal
	limComponents  = 40  // IncomingWebhookInteractionRequest.components / ModalInteractionCallbackRequestData.components maxItems
	limRowItems    = 5   // ActionRowComponentForMessageRequest.components maxItems (minItems 1)
	limCustomID    = 100 // ButtonComponentForMessageRequest.custom_id maxLength (minLength 1), the same for selects and text inputs
	limButtonLabel = 80  // ButtonComponentForMessageRequest.label maxLength
	limPlaceholder = 150 // StringSelectComponentForMessageRequest.placeholder maxLength
	limOptions     = 25  // StringSelectComponentForMessageRequest.options maxItems (minItems 1); max_values maximum 25
	limOptionText  = 100 // StringSelectOptionForRequest.label/value maxLength (minLength 1), description maxLength
	// Modals.
	limModalTitle      = 45   // ModalInteractionCallbackRequestData.title maxLength (minLength 1)
	limInputLabel      = 45   // TextInputComponentForModalRequest.label maxLength (minLength 1)
	limInputPlace      = 100  // TextInputComponentForModalRequest.placeholder maxLength
	limInputValue      = 4000 // TextInputComponentForModalRequest.value and max_length maximum
	limModalInputs     = 5    // documentation: at most five text inputs in a modal
	limChoices         = 25   // InteractionApplicationCommandAutocompleteCallback*Data.choices maxItems
	limChoiceName      = 100  // ApplicationCommandOptionStringChoice.name maxLength (minLength 1)
	limChoiceValueText = 6000 // ApplicationCommandOptionStringChoice.value maxLength
)

// utf16Len counts a string as Discord's limits count it. Discord's clients
// and API count JavaScript string length, UTF-16 code units, so an emoji
// outside the BMP counts twice; counting so is never more lenient than
// counting code points. (Written apart from board.go's discordLen so the
// checker does not trust the code it checks.)
func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }

// limitViolations lists every way resp breaks one of Discord's limits; an
// empty list means Discord accepts it as far as sizes and counts go.
func limitViolations(resp *discordgo.InteractionResponse) []string {
	var bad []string
	fail := func(format string, args ...any) { bad = append(bad, fmt.Sprintf(format, args...)) }
	within := func(what, s string, lo, hi int) {
		if n := utf16Len(s); n < lo || n > hi {
			fail("%s is %d characters, outside %d..%d: %q", what, n, lo, hi, truncateForReport(s))
		}
	}
	d := resp.Data
	if d == nil {
		return nil
	}
	if resp.Type == discordgo.InteractionResponseModal {
		within("modal custom_id", d.CustomID, 1, limCustomID)
		within("modal title", d.Title, 1, limModalTitle)
		if len(d.Components) < 1 || len(d.Components) > limModalInputs {
			fail("modal has %d rows, outside 1..%d", len(d.Components), limModalInputs)
		}
		for _, c := range d.Components {
			row := rowOf(c)
			if row == nil || len(row.Components) != 1 {
				fail("a modal row must hold exactly one text input")
				continue
			}
			ti, ok := deref(row.Components[0]).(discordgo.TextInput)
			if !ok {
				fail("modal row holds %T, not a text input", row.Components[0])
				continue
			}
			within("text input custom_id", ti.CustomID, 1, limCustomID)
			within("text input label", ti.Label, 1, limInputLabel)
			within("text input placeholder", ti.Placeholder, 0, limInputPlace)
			within("text input value", ti.Value, 0, limInputValue)
			if ti.MaxLength < 0 || ti.MaxLength > limInputValue || ti.MinLength < 0 || ti.MinLength > limInputValue {
				fail("text input lengths %d..%d outside 0..%d", ti.MinLength, ti.MaxLength, limInputValue)
			}
		}
		return bad
	}
	within("content", d.Content, 0, limContent)
	if len(d.Embeds) > limEmbeds {
		fail("%d embeds, over %d", len(d.Embeds), limEmbeds)
	}
	total := 0
	for _, e := range d.Embeds {
		if e == nil {
			fail("an embed is null")
			continue
		}
		within("embed title", e.Title, 0, limEmbedTitle)
		within("embed description", e.Description, 0, limEmbedDesc)
		total += utf16Len(e.Title) + utf16Len(e.Description)
		if len(e.Fields) > limEmbedFields {
			fail("%d embed fields, over %d", len(e.Fields), limEmbedFields)
		}
		for _, f := range e.Fields {
			if f == nil {
				fail("an embed field is null")
				continue
			}
			within("field name", f.Name, 1, limFieldName)
			within("field value", f.Value, 1, limFieldValue)
			total += utf16Len(f.Name) + utf16Len(f.Value)
		}
		if e.Footer != nil {
			within("footer", e.Footer.Text, 0, limFooter)
			total += utf16Len(e.Footer.Text)
		}
		if e.Author != nil {
			within("author", e.Author.Name, 0, limAuthor)
			total += utf16Len(e.Author.Name)
		}
	}
	if total > limEmbedTotal {
		fail("embeds total %d characters, over %d", total, limEmbedTotal)
	}
	if len(d.Choices) > limChoices {
		fail("%d autocomplete choices, over %d", len(d.Choices), limChoices)
	}
	for _, c := range d.Choices {
		if c == nil {
			fail("an autocomplete choice is null")
			continue
		}
		within("choice name", c.Name, 1, limChoiceName)
		if s, ok := c.Value.(string); ok {
			within("choice value", s, 0, limChoiceValueText)
		}
	}
	if len(d.Components) > limRows {
		fail("%d component rows, over %d", len(d.Components), limRows)
	}
	count := 0
	seen := map[string]bool{}
	for _, c := range d.Components {
		row := rowOf(c)
		if row == nil {
			fail("top-level component %T is not an action row", c)
			continue
		}
		count += 1 + len(row.Components)
		if len(row.Components) < 1 || len(row.Components) > limRowItems {
			fail("a row holds %d components, outside 1..%d", len(row.Components), limRowItems)
		}
		for _, c := range row.Components {
			var cid string
			switch v := deref(c).(type) {
			case discordgo.Button:
				cid = v.CustomID
				within("button label", v.Label, 0, limButtonLabel)
				if v.Label == "" && v.Emoji == nil {
					fail("button %q has neither label nor emoji", cid)
				}
			case discordgo.SelectMenu:
				cid = v.CustomID
				if len(row.Components) != 1 {
					fail("select %q shares its row", cid)
				}
				within("select placeholder", v.Placeholder, 0, limPlaceholder)
				if len(v.Options) < 1 || len(v.Options) > limOptions {
					fail("select %q has %d options, outside 1..%d", cid, len(v.Options), limOptions)
				}
				defaults := 0
				values := map[string]bool{}
				for _, o := range v.Options {
					within("option label", o.Label, 1, limOptionText)
					within("option value", o.Value, 1, limOptionText)
					within("option description", o.Description, 0, limOptionText)
					if values[o.Value] {
						fail("select %q repeats the value %q", cid, o.Value)
					}
					values[o.Value] = true
					if o.Default {
						defaults++
					}
				}
				if defaults > 1 {
					fail("select %q has %d default options", cid, defaults)
				}
				if v.MaxValues > limOptions || (v.MinValues != nil && *v.MinValues > limOptions) {
					fail("select %q min/max values over %d", cid, limOptions)
				}
			default:
				fail("row holds %T, which messages cannot", c)
				continue
			}
			within("custom_id", cid, 1, limCustomID)
			if seen[cid] {
				fail("custom_id %q used twice in one message", cid)
			}
			seen[cid] = true
		}
	}
	if count > limComponents {
		fail("%d components in all, over %d", count, limComponents)
	}
	return bad
}

func truncateForReport(s string) string { return truncate(s, 80) }
