package bot

import (
	"errors"
	"fmt"

	"github.com/bwmarrin/discordgo"
)

// discordgo (v0.29) names a request's rate-limit bucket by its URL, and
// its RateLimiter keeps every bucket it ever made, for the life of the
// session. For a route whose URL names one interaction or one channel,
// that is a bucket per interaction (about 500 bytes, the token included)
// or per channel that ever had a board edited by the scheduler (about 120
// bytes), kept for as long as the process runs. The calls below send the
// same requests as discordgo's, with the same body and error handling,
// each through a bucket of a RateLimiter the caller chooses and drops:
//
//   - An interaction's calls each get a limiter of their own (callLimiter).
//     The callback is made once per interaction, so its bucket could never
//     serve a second request anyway. Discord limits webhook calls per
//     webhook id and token, i.e. per interaction, and nimbot makes one
//     follow-up and at most one delete per interaction; a bucket that
//     outlived the call would meet no other request of its route.
//     Interaction endpoints are not bound to the application's global rate
//     limit (Discord's "Receiving and Responding": Endpoints), so the first
//     try neither waits for the session's global limit nor sets it.
//   - The scheduler's board edits share one limiter per sweep (Tick): an
//     edit meets the limits the sweep's earlier edits in its channel were
//     told of, and a global 429 holds the rest of the sweep, as the
//     session's limiter would. Sweeps are DefaultInterval apart, far longer
//     than any per-channel reset, so nothing a bucket knew is needed by the
//     next one.
//
// In both, a 429 is still retried after its Retry-After on the same bucket
// (discordgo's RequestWithLockedBucket), locked through the session's
// limiter again, as discordgo does it, so it waits for a global limit the
// session knows of.
//
// The GET and PATCH of @original need none of this: without files
// (nimbot sends none) discordgo keys them by a constant (webhooks//), one
// bucket for all interactions.

// callLimiter is a rate limiter for one call, dropped with it.
func callLimiter() *discordgo.RateLimiter { return discordgo.NewRatelimiter() }

// interactionRespond is Session.InteractionRespond without the lasting
// bucket: POST /interactions/{id}/{token}/callback.
func interactionRespond(s *discordgo.Session, i *discordgo.Interaction, resp *discordgo.InteractionResponse, opts ...discordgo.RequestOption) error {
	var files []*discordgo.File
	if resp.Data != nil {
		files = resp.Data.Files
	}
	url := discordgo.EndpointInteractionResponse(i.ID, i.Token)
	_, err := request(s, callLimiter(), "POST", url, url, *resp, files, opts...)
	return err
}

// followupMessageCreate is Session.FollowupMessageCreate with wait (the
// message is returned) without the lasting bucket: POST
// /webhooks/{app}/{token}?wait=true.
//
// It is sent once, whatever the answer. discordgo sends a request again
// on a 502 (up to MaxRestRetries more times), but a 502 comes from
// Discord's edge and says nothing of whether the message was made behind
// it: one answer could post the same board up to four times. A message
// lost is the lesser harm: its move is saved, and the next click or /nim
// status shows the board. (A 429 is still retried: the request was
// refused, not carried out. The callback may be retried on a 502 too:
// Discord acknowledges an interaction once and refuses a second callback.)
func followupMessageCreate(s *discordgo.Session, i *discordgo.Interaction, data *discordgo.WebhookParams, opts ...discordgo.RequestOption) (*discordgo.Message, error) {
	url := discordgo.EndpointFollowupMessage(i.AppID, i.Token) + "?wait=true"
	opts = append(opts[:len(opts):len(opts)], discordgo.WithRestRetries(0))
	body, err := request(s, callLimiter(), "POST", url, url, data, data.Files, opts...)
	if err != nil {
		return nil, err
	}
	var m *discordgo.Message
	if err := discordgo.Unmarshal(body, &m); err != nil {
		return nil, fmt.Errorf("%w: %s", discordgo.ErrJSONUnmarshal, err)
	}
	return m, nil
}

// interactionResponseDelete is Session.InteractionResponseDelete without the
// lasting bucket: DELETE /webhooks/{app}/{token}/messages/@original.
func interactionResponseDelete(s *discordgo.Session, i *discordgo.Interaction, opts ...discordgo.RequestOption) error {
	url := discordgo.EndpointInteractionResponseActions(i.AppID, i.Token)
	_, err := request(s, callLimiter(), "DELETE", url, url, nil, nil, opts...)
	return err
}

// channelMessageEdit is Session.ChannelMessageEditComplex through rl's
// bucket for the channel's messages (the key discordgo gives it): PATCH
// /channels/{channel}/messages/{id}.
func channelMessageEdit(s *discordgo.Session, rl *discordgo.RateLimiter, m *discordgo.MessageEdit, opts ...discordgo.RequestOption) (*discordgo.Message, error) {
	if m.Embed != nil {
		// discordgo's compatibility with the single-embed field.
		if m.Embeds != nil {
			return nil, fmt.Errorf("cannot specify both Embed and Embeds")
		}
		m.Embeds = &[]*discordgo.MessageEmbed{m.Embed}
	}
	if m.Embeds != nil {
		for _, e := range *m.Embeds {
			if e.Type == "" {
				e.Type = discordgo.EmbedTypeRich
			}
		}
	}
	body, err := request(s, rl, "PATCH", discordgo.EndpointChannelMessage(m.Channel, m.ID),
		discordgo.EndpointChannelMessage(m.Channel, ""), m, m.Files, opts...)
	if err != nil {
		return nil, err
	}
	var msg *discordgo.Message
	if err := discordgo.Unmarshal(body, &msg); err != nil {
		return nil, fmt.Errorf("%w: %s", discordgo.ErrJSONUnmarshal, err)
	}
	return msg, nil
}

// discordCode is the JSON error code of Discord's answer to a failed REST
// call (such as 40060, interaction already acknowledged), 0 if it has
// none.
func discordCode(err error) int {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil {
		return re.Message.Code
	}
	return 0
}

// request sends data (JSON, or multipart with files, as discordgo encodes
// them) to url through rl's bucket bucketID (see above).
func request(s *discordgo.Session, rl *discordgo.RateLimiter, method, url, bucketID string, data any, files []*discordgo.File, opts ...discordgo.RequestOption) ([]byte, error) {
	contentType := "application/json"
	var body []byte
	var err error
	switch {
	case len(files) > 0:
		contentType, body, err = discordgo.MultipartBodyWithJSON(data, files)
	case data != nil:
		body, err = discordgo.Marshal(data)
	}
	if err != nil {
		return nil, err
	}
	return s.RequestWithLockedBucket(method, url, contentType, body, rl.LockBucket(bucketID), 0, opts...)
}
