// Package bot is everything nimbot says to and hears from Discord.
//
// It knows nothing of Nim: it moves interactions in and responses out. The
// product lives in package commands, which bot reaches through the small
// Service interface (discordgo types only: bot imports no commands type), so
// that the transports can be built and tested on their own; main hands it
// the service, as it hands package terminal, bot's sibling transport.
//
// Two transports deliver interactions and answer them with the same
// *discordgo.InteractionResponse:
//
//   - Gateway: a discordgo Session on Discord's websocket gateway. Each
//     INTERACTION_CREATE runs Service.Handle and is answered by REST
//     (POST /interactions/{id}/{token}/callback).
//   - HTTP: an http.Handler for an Interactions Endpoint URL. Discord POSTs
//     each interaction signed with Ed25519; the answer goes back inline in the
//     HTTP response. Nothing is kept in memory between requests, so several
//     instances can share one database behind a load balancer.
//
// The HTTP endpoint trusts only what the standard library checks: the body
// is read through http.MaxBytesReader (MaxBody), the signature over the
// timestamp and body is crypto/ed25519.Verify's, against the key
// CheckPublicKey accepted at start, and a timestamp outside
// MaxTimestampAge and MaxTimestampSkew is refused too, so a captured
// request cannot be replayed; each refusal is a 401, logged at most once a
// second (golang.org/x/time/rate), as anyone can send them. The
// interaction is then decoded by encoding/json into discordgo's types, as
// the gateway decodes it; a body that does not decode gets 400.
//
// Discord takes one answer per interaction, and either transport may
// deliver one twice (the gateway replays events when a session resumes;
// an HTTP request may be sent again). Service.Handle tells a re-delivery
// from the answers saved in the store (replayed), so this holds across
// instances and restarts: the gateway then sends nothing, and the HTTP
// endpoint, which Discord waits on for an answer, sends the saved one
// again. A callback Discord refuses as acknowledged already (40060: an
// answer that was not saved, made again for a re-delivery, or another
// instance's) is logged below ERROR, and one refused as too late (10062,
// its 3 seconds gone) once, with the interaction's age.
//
// Both share one rule for Discord's 3-second deadline: when Handle has not
// answered within DeferAfter, Discord gets a deferred response at once
// (ephemeral when Service.Private says every answer is) and the real answer
// follows through the interaction's webhook: an edit of @original when the
// loading message can become exactly that answer, else a follow-up message
// in its place. After a response that created a public message, bot
// fetches @original and reports it with Service.BoardSent, so the board's
// message id can be stored for later edits; that fetch waits FetchDelay
// (15 s, a quarter of the shortest timeout at most) in one bounded queue,
// and is made only if Service.BoardWanted still wants it then: most games
// against nimbot are over by then and cost neither the REST call nor the
// write. Past MaxDelayed waiting, a fetch is made at once.
//
// That background work is bounded (MaxPending, default 256, then dropped
// and logged: a handled move is committed already, and what one still being
// handled commits stands) and shutdown waits for it at most
// FollowupGrace (the delayed fetches become due at once), because
// discordgo sends it through one rate-limit bucket, one request at a time,
// and a hanging API would pile it up.
//
// Scheduler covers the periodic work: it calls Service.Expire (at start, so
// deadlines that passed while the process was down are handled, and then
// periodically) and sends each board edit by REST with the bot token, and it
// prunes the saved answers no redelivery can ask for (PruneAnswers,
// Retention). With Posts it also sends the posts due (the daily puzzle, see
// Post): each claimed in the database by one instance, checked to be in its
// server, sent with a nonce Discord enforces, then recorded; a channel it
// can no longer post in is dropped with a log line. With PostEdits it edits
// those posts (the running count of solves, see PostEdit), each claimed by
// one instance at most once per interval; a message Discord will not let it
// edit any more is left alone, with a log line.
//
// Discord being unreachable does not stop nimbot: command registration
// (RegisterWithRetry) and the gateway connection (Gateway.Open) are retried
// with a jittered backoff, and their Status shows in /healthz (Health, with
// DatabaseChecks for the database).
//
// Shards runs the gateway as Discord's sharding asks: one Gateway (and
// Session, identifying as [shard_id, num_shards]) per shard this process
// runs, all with the same Service, one REST rate limiter, and commands
// registered only by the process that runs shard 0. IdentifyLimit keeps
// their Identify calls within max_concurrency and the session start limit
// without the processes talking to each other (slots from the clock).
// discordgo re-identifies by itself, unchecked, when Discord invalidates a
// session it is resuming (opcode 9); that is rare, and it has no hook.
//
// discordgo v0.29.0 departs from Discord's gateway documentation in two
// more ways that nimbot cannot change without forking it (the gateway URL
// and the heartbeat loop are unexported); it takes what follows instead:
//
//   - It ignores READY's resume_gateway_url (its Ready has no such field)
//     and resumes on the URL it first connected to. Discord says such a
//     client "will experience disconnects at a higher rate than normal".
//     Each one costs a resume, or, when Discord refuses it, discordgo's
//     own Identify (above). The link's Status shows it; the events a
//     resume replays are answered once (above); an interaction lost with
//     a refused session is one its user sees fail and sends again.
//   - It sends the first heartbeat as soon as the session is up, not after
//     heartbeat_interval × a random jitter. The jitter keeps many clients
//     that reconnect at the same moment from heartbeating together; nimbot
//     is a handful of sessions, and its own connection attempts are
//     spread already (a jittered backoff, IdentifyLimit's slots). An early
//     heartbeat is valid, so nothing is done about it.
//
// Beside interactions, the HTTP handler takes Discord's webhook events at
// EventsPath (HTTPConfig.Forget; events.go), checked as interactions are:
// a PING is 204, APPLICATION_DEAUTHORIZED schedules the user's forgetting
// after HTTPConfig.ForgetAfter and APPLICATION_AUTHORIZED cancels it, each
// in the order of the events' own timestamps; the Scheduler carries it out
// (SchedulerConfig.Forget), unless the user played on meanwhile, and
// forgets servers idle for IdleAfter, once across instances (the store's
// claim). With HTTPConfig.Pages it serves the public /privacy and /terms
// pages, rendered once by the caller (commands.RenderPages) in every
// language and picked by the reader's.
//
// bot never logs a token. Interaction tokens travel in webhook URLs, so
// errors from REST calls are logged without their URL (see safeErr), and
// the calls whose rate-limit bucket discordgo would name by such a URL (the
// callback, a follow-up, the delete of @original) go through a bucket of
// their own that ends with the call: discordgo keeps every bucket it makes,
// one per interaction for the life of the process (rest.go).
package bot
