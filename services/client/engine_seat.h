// A remote seat played by one of the engine's built-in bots — any kind, any level, the search
// levels included — from nothing but the seat's views: ObservedMatch (engine/bots/
// observed_match.h) rebuilds the match from each view's event and hand, and the bot is asked on
// the rebuilt match as the execution service would ask it. What `boneyard bot --kind` and
// `boneyard bot --ladder --kind` play with.
//
// The seat must see every event from the first: its RemotePlayer asks for the earlier events'
// views with every hello (RemotePlayerOptions::replay_events) and for the fields of
// EngineViewMask(). When it still cannot — a match ObservedMatch cannot rebuild (docs/bots.md),
// or views that contradict each other — it says why once through `note` and plays uniformly at
// random from the view's legal actions for the rest of the match.
//
// A search level thinks on the client queue's thread that delivers the view, within its level's
// think time: a bot process runs few matches per core, which is what that queue has.
#ifndef BONEYARD_SERVICES_CLIENT_ENGINE_SEAT_H_
#define BONEYARD_SERVICES_CLIENT_ENGINE_SEAT_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "boneyard/v1/execution.grpc.pb.h"
#include "google/protobuf/field_mask.pb.h"
#include "services/client/remote_player.h"

namespace boneyard::client {

struct EngineSeat {
  Chooser chooser;
  // Feed it every view (RemotePlayerOptions::on_view).
  std::function<void(const v1::SeatView&)> on_view;
};

// The seat of `match` (as GetMatch returns it) played by `bot` ("search:4", "greedy",
// "random"). INVALID_ARGUMENT naming the bot when the game has no such kind or level.
// `note` gets a line (ending in a newline) when the seat falls back to random play; it is
// called on a client queue's thread.
using SeatNote = std::function<void(const std::string& line)>;
absl::StatusOr<EngineSeat> MakeEngineSeat(const v1::Match& match, absl::string_view bot,
                                          uint64_t seed, SeatNote note);

// Plays match `match_name` (on `stub`) with `bot`: reads the match's rules (GetMatch), makes its
// EngineSeat and sets `options` to feed it (on_view, EngineViewMask(), replay_events). The
// chooser to give the RemotePlayer, or why not (UNAVAILABLE: GetMatch failed; INVALID_ARGUMENT:
// the game has no such bot).
absl::StatusOr<Chooser> PlayWithEngineBot(v1::ExecutionService::StubInterface& stub,
                                          const std::string& match_name, absl::string_view bot,
                                          uint64_t seed, SeatNote note,
                                          RemotePlayerOptions& options);

// Whether `bot` ("kind" or "kind:level") is a built-in bot of some game, before any match is
// known: INVALID_ARGUMENT naming it otherwise.
absl::Status CheckBotKind(absl::string_view bot);

// PlayingViewMask() and what rebuilding the match compares: hand, round, counts, scores and
// the table.
google::protobuf::FieldMask EngineViewMask();

}  // namespace boneyard::client

#endif  // BONEYARD_SERVICES_CLIENT_ENGINE_SEAT_H_
