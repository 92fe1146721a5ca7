// Command load measures nimbot's HTTP interactions mode under load, beside
// the floor of the trusted parts every move needs, and checks that it
// survives faults.
//
// Usage, from the repository root:
//
//	go run ./bench/load                       # in-process serve on loopback
//	go run ./bench/load -games-stored 100000  # the same with 100,000 finished games in the store
//	go run ./bench/load -spawn                # build nimbot, run `nimbot serve` as a child, measure it alone
//	go run ./bench/load -spawn -server-bin /tmp/nimbot-before   # a binary built elsewhere, e.g. of another commit
//	go run ./bench/load -spawn -server-env "GOGC=200 GOMEMLIMIT=200MiB"
//	go run ./bench/load -keygen               # a key pair for -addr
//	go run ./bench/load -addr 127.0.0.1:8080 -key SEED  # against a running `nimbot serve`
//	go run ./bench/load -addr 127.0.0.1:8080 -key SEED -server-admin 127.0.0.1:9090  # … and read its CPU
//	go run ./bench/load -addr 127.0.0.1:8081,127.0.0.1:8082 -key SEED  # channels spread across instances
//	go run ./bench/load -faults               # kill -9, SIGTERM and a locked database against the real binary
//
// Each of -channels channels is one goroutine that plays like a Discord
// client: it sends a signed /nim start, then clicks the controls of the
// board the server returned (a MESSAGE_COMPONENT with the custom_id read
// from the board and the board message attached, as Discord sends it),
// until the game ends, and starts the next. A -people share of the
// channels hosts games between two people instead of games against nimbot.
// A channel sends its next interaction only after the answer to the last.
// Payloads are built and answers read with encoding/json, signed with
// crypto/ed25519, and sent with net/http, one keep-alive connection per
// channel.
//
// In-process mode starts what `nimbot serve` starts (a store file,
// commands.Service, bot.HTTP behind net/http, the scheduler) on a loopback
// port; Discord's REST API, which bot calls after an answer that posts a
// new board, is a loopback stand-in. With -spawn the server is a child
// process with ADMIN_ADDR on a free loopback port, and its CPU per pass is
// process_cpu_seconds_total read from its /metrics at the start and end of
// the pass; a server binary without /metrics (-server-bin of a build from
// before the admin listener) is measured instead by its user+system time
// over its whole run, from its exit status. -server-admin does the same
// for a serve at -addr.
//
// The first pass runs at -rate moves/s (0: as fast as the channels go), a
// second at -fixed-rate; each reports moves/s, requests/s, latency
// quantiles from the request's first byte to the answer's last, errors
// (transport errors, non-2xx answers, ephemeral answers where a board was
// expected) and games. -latency-log writes every request measured, to find
// the stalls behind a p99.
//
// The floor is measured in the same run, each part alone for -limits-for
// in this process, as CPU per call (getrusage): crypto/ed25519 verifying a
// signed click the load sent, encoding/json decoding it into a
// discordgo.Interaction, one durable store.Commit (synchronous=FULL), and a
// board rendered and encoded by commands.Service. The server's CPU per
// request is printed as a multiple of their sum.
//
// -faults builds the real binary, runs `nimbot serve` as a child with a
// fake bot token and REST calls routed to a closed port, and reports one
// line per scenario: SIGKILL under load again and again (no acknowledged
// move lost, no game corrupted), SIGTERM under load (every request the
// server accepted is answered), and a database locked by another process
// (serve exits with a clear error).
package main
