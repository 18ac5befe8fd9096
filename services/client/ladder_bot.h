// A remote bot account on a ladder (docs/bots.md, "Remote bots: the protocol"): it joins the
// ladder answering its challenges itself, watches its events (LadderService.WatchEvents,
// resuming from the last sequence seen when the stream breaks), accepts what it is offered
// while it plays fewer than `max_concurrent` matches (and declines the rest, saying it is
// busy), and plays every match it is seated in over `Play` (RemotePlayer, at random or with a
// built-in bot of `kind` rebuilding the match from its views) until `matches` have ended. What `boneyard bot --ladder` runs.
#ifndef BONEYARD_SERVICES_CLIENT_LADDER_BOT_H_
#define BONEYARD_SERVICES_CLIENT_LADDER_BOT_H_

#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"

namespace boneyard::client {

struct LadderBotOptions {
  std::string ladder;  // "ladders/{id}"
  // Stop once this many matches have ended (0: never).
  int matches = 0;
  int max_concurrent = 1;
  bool accept_rated = false;  // and casual always
  // The built-in bot that plays its seats ("random", "greedy", "search:4"; engine_seat.h).
  std::string kind = "random";
  uint64_t seed = 1;
  // Reconnect a broken event stream or Play stream for this long.
  absl::Duration reconnect_for = absl::Seconds(30);
};

// Runs the bot until `options.matches` have ended; a line on `log` for each challenge answered
// and each match ended. An error when joining fails, or when the event stream stays broken past
// `reconnect_for`.
absl::Status RunLadderBot(std::shared_ptr<grpc::Channel> matchmaking,
                          const std::string& player_token, const LadderBotOptions& options,
                          std::ostream& log);

}  // namespace boneyard::client

#endif  // BONEYARD_SERVICES_CLIENT_LADDER_BOT_H_
