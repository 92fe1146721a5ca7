package bot

import (
	"encoding/json"

	"github.com/bwmarrin/discordgo"
)

// plainInteraction is discordgo.Interaction without its UnmarshalJSON, so
// decodeInteraction can decode the fields itself.
type plainInteraction discordgo.Interaction

// messageRef is what nimbot reads of the message a component was clicked on
// (or a modal opened from): that there is one, its id and its channel. The
// rest of it, the whole board with its embeds and components, Discord sends
// back with every click and the product never reads.
type messageRef struct {
	ID        string `json:"id"`
	ChannelID string `json:"channel_id"`
}

// decodeInteraction decodes an interaction as discordgo.Interaction's own
// UnmarshalJSON does (the data by the interaction's type), except that the
// attached message keeps only its id and channel: building the board's
// embeds and components into discordgo types was the largest part of
// decoding a click, for fields nothing reads.
func decodeInteraction(body []byte, i *discordgo.Interaction) error {
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
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		var d discordgo.ApplicationCommandInteractionData
		if err := json.Unmarshal(v.Data, &d); err != nil {
			return err
		}
		i.Data = d
	case discordgo.InteractionMessageComponent:
		var d discordgo.MessageComponentInteractionData
		if err := json.Unmarshal(v.Data, &d); err != nil {
			return err
		}
		i.Data = d
	case discordgo.InteractionModalSubmit:
		var d discordgo.ModalSubmitInteractionData
		if err := json.Unmarshal(v.Data, &d); err != nil {
			return err
		}
		i.Data = d
	}
	return nil
}
