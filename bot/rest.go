package bot

import (
	"fmt"

	"github.com/bwmarrin/discordgo"
)

// The REST calls below carry an interaction's token in their URL, and
// discordgo (v0.29) names their rate-limit bucket by that URL: the
// callback, a follow-up and the delete of @original. Its RateLimiter keeps
// every bucket it ever made, so each interaction left one (about 500 bytes,
// the token included) in the session for as long as the process ran. These
// calls send the same requests, with the same body and error handling, each
// through a bucket of a rate limiter of its own that is dropped with the
// call:
//
//   - The callback is made once per interaction, so its bucket could never
//     serve a second request anyway.
//   - Discord limits webhook calls per webhook id and token, i.e. per
//     interaction, and nimbot makes one follow-up and at most one delete per
//     interaction; a bucket that outlived the call would meet no other
//     request of its route. A 429 is still retried after its Retry-After
//     (discordgo's RequestWithLockedBucket) on the same bucket.
//   - Interaction endpoints are not bound to the application's global rate
//     limit (Discord's "Receiving and Responding": Endpoints), so the first
//     try neither waits for the session's global limit nor sets it; a retry
//     after a 429 or a 502 is locked through the session's limiter again,
//     as discordgo does it, and waits for a global limit if one is set.
//
// The GET and PATCH of @original need none of this: without files
// (nimbot sends none) discordgo keys them by a constant (webhooks//), one
// bucket for all interactions.

// interactionRespond is Session.InteractionRespond without the lasting
// bucket: POST /interactions/{id}/{token}/callback.
func interactionRespond(s *discordgo.Session, i *discordgo.Interaction, resp *discordgo.InteractionResponse, opts ...discordgo.RequestOption) error {
	var files []*discordgo.File
	if resp.Data != nil {
		files = resp.Data.Files
	}
	_, err := tokenRequest(s, "POST", discordgo.EndpointInteractionResponse(i.ID, i.Token), *resp, files, opts...)
	return err
}

// followupMessageCreate is Session.FollowupMessageCreate with wait (the
// message is returned) without the lasting bucket: POST
// /webhooks/{app}/{token}?wait=true.
func followupMessageCreate(s *discordgo.Session, i *discordgo.Interaction, data *discordgo.WebhookParams, opts ...discordgo.RequestOption) (*discordgo.Message, error) {
	body, err := tokenRequest(s, "POST", discordgo.EndpointFollowupMessage(i.AppID, i.Token)+"?wait=true", data, data.Files, opts...)
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
	_, err := tokenRequest(s, "DELETE", discordgo.EndpointInteractionResponseActions(i.AppID, i.Token), nil, nil, opts...)
	return err
}

// tokenRequest sends data (JSON, or multipart with files, as discordgo
// encodes them) to url through a bucket no other request shares.
func tokenRequest(s *discordgo.Session, method, url string, data any, files []*discordgo.File, opts ...discordgo.RequestOption) ([]byte, error) {
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
	bucket := discordgo.NewRatelimiter().LockBucket(url)
	return s.RequestWithLockedBucket(method, url, contentType, body, bucket, 0, opts...)
}
