// The match host: the execution service's logic, with no gRPC in it. It hosts every live match
// in memory, each owned by one strand (its actions are applied in order, never by two threads
// at once) running on a worker pool; built-in bots think on a pool of their own; move clocks
// fire from one timer thread. Every event goes through the group committer and is durable
// before anyone sees it: the submitter's answer, the seats' views and the spectators' views are
// all sent after the commit. On start the host replays every unfinished match's log from the
// store and carries on.
//
// Every public method returns at once; `done` runs later on one of the host's threads and must
// not block. Tokens are the call's bearer token (nullopt when it had none); the host answers
// UNAUTHENTICATED / PERMISSION_DENIED itself, as execution.proto documents for each RPC.
//
// The gRPC handlers (execution_service.cc) only decode, call, encode; tests drive this class
// directly as well.
#ifndef BONEYARD_SERVICES_EXECUTION_MATCH_HOST_H_
#define BONEYARD_SERVICES_EXECUTION_MATCH_HOST_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "boneyard/v1/execution.pb.h"
#include "boneyard/v1/game.pb.h"
#include "engine/bots/bot.h"
#include "engine/core/registry.h"
#include "google/protobuf/field_mask.pb.h"
#include "prometheus/registry.h"
#include "services/common/rate_limit.h"
#include "services/execution/group_commit.h"
#include "services/execution/match_store.h"

namespace boneyard::execution {

// One stream's outgoing side. The host calls Send and Close from its threads; implementations
// queue the message and return at once. Send returns false once the stream is gone (the client
// left), and the host then forgets the sink. Close is the last call.
template <class Message>
class StreamSink {
 public:
  virtual ~StreamSink() = default;
  virtual bool Send(std::shared_ptr<const Message> message) = 0;
  virtual void Close(absl::Status status) = 0;
  // Whether Send would still take a message: false once the client left or the stream is
  // closing. Lets the host drop dead streams without a message to send.
  virtual bool Alive() const = 0;
};
using SeatSink = StreamSink<v1::PlayResponse>;
using WatchSink = StreamSink<v1::WatchMatchResponse>;

template <class T>
using Callback = std::function<void(absl::StatusOr<T>)>;

// A seat's authenticated Play stream. Answers go to its sink: views, or
// PlayResponse.rejected for an action that was not played.
class SeatStream {
 public:
  virtual ~SeatStream() = default;
  // The sink gets the seat's current view.
  virtual void Hello() = 0;
  // Plays `action` if `seen_sequence` is current; otherwise, or if it is malformed or illegal,
  // the sink gets a rejection.
  virtual void Play(v1::Action action, int64_t seen_sequence) = 0;
};

struct HostOptions {
  // The strands' worker pool; 0 means one thread per core.
  int workers = 0;
  // The built-in bots' pool; 0 means one thread per core.
  int bot_workers = 0;
  // A built-in bot's time for one move. Today's bots answer in microseconds; a bot that runs
  // over its budget has its move replaced by the greedy (or random) move, and the metric
  // boneyard_bot_over_budget_total counts it.
  absl::Duration bot_think_budget = absl::Milliseconds(500);
  // A pause before each built-in bot move, so people can follow a match; zero for tests/load.
  absl::Duration bot_delay = absl::ZeroDuration();
  // Flood limits. A seat's rejected actions, hellos and stream opens (what costs the host work
  // but does not advance the game; a seat's legal actions are never limited: the game bounds
  // them) share one bucket per seat across its streams and SubmitAction. Past it, the request is
  // RESOURCE_EXHAUSTED and a stream that sent it is closed. per_second 0: no limit.
  RateLimit seat_flood = {.per_second = 10, .burst = 30};
  // The most spectators one match takes at once (WatchMatch); 0: no limit. Big audiences are
  // meant to watch through a relay (the web app) that holds one stream.
  int max_watchers_per_match = 1000;
  // The operator token (CreateMatch, AbortMatch).
  std::string operator_token;
  // Where the host registers its metrics; may be null.
  prometheus::Registry* metrics = nullptr;
  // Called once a finished match's result is durable (with its outbox row), on the match's
  // strand: it must not block. The service wakes the outbox dispatcher with it.
  std::function<void()> on_finished;
  // Start replays every ACTIVE match of the store (one process owning them all). A replica
  // (docs/scaling.md) sets it false and hosts only the matches it creates and adopts
  // (AdoptMatches).
  bool recover_all_on_start = true;
};

class MatchHost {
 public:
  // Loads and replays every ACTIVE match of `store`, re-arms their clocks and bots, and starts
  // the pools. `store` and `log` must outlive the host. FAILED_PRECONDITION naming the match when
  // a stored log does not replay (a corrupt database: the service refuses to start).
  static absl::StatusOr<std::unique_ptr<MatchHost>> Start(MatchStore& store, GroupCommitter& log,
                                                          HostOptions options);
  ~MatchHost();  // Shutdown()

  MatchHost(const MatchHost&) = delete;
  MatchHost& operator=(const MatchHost&) = delete;

  void CreateMatch(std::optional<std::string> token, v1::CreateMatchRequest request,
                   Callback<v1::CreateMatchResponse> done);
  void GetMatch(std::string name, Callback<v1::Match> done);
  void ListMatches(v1::ListMatchesRequest request, Callback<v1::ListMatchesResponse> done);
  void GetRecord(std::string name, Callback<v1::Record> done);
  void AbortMatch(std::optional<std::string> token, v1::AbortMatchRequest request,
                  Callback<v1::Match> done);
  void SubmitAction(std::optional<std::string> token, v1::SubmitActionRequest request,
                    Callback<v1::SeatView> done);
  // The outbox's parked results (operator only): list them, deliver one again, drop one.
  void ListParkedResults(std::optional<std::string> token, v1::ListParkedResultsRequest request,
                         Callback<v1::ListParkedResultsResponse> done);
  void RetryParkedResult(std::optional<std::string> token, std::string name,
                         Callback<v1::ParkedResult> done);
  void DropParkedResult(std::optional<std::string> token, std::string name,
                        Callback<v1::ParkedResult> done);
  // Play: checks the token against match `name` and attaches `sink`, which gets the seat's
  // current view at once and one after every event, each with the fields of `view_mask`
  // (empty: all); after the terminal view the host calls Close(OK). Errors (UNAUTHENTICATED,
  // INVALID_ARGUMENT, NOT_FOUND, PERMISSION_DENIED) go to `done` and the sink is not used.
  // With `replay_events`, the seat's earlier views come first (PlayRequest.replay_events).
  void OpenSeatStream(std::optional<std::string> token, std::string name,
                      const google::protobuf::FieldMask& view_mask, bool replay_events,
                      std::shared_ptr<SeatSink> sink,
                      Callback<std::shared_ptr<SeatStream>> done);
  // WatchMatch: attaches `sink` as a spectator (current public view first, each view with the
  // fields of `view_mask`). `done` gets the error (INVALID_ARGUMENT, NOT_FOUND) or OK once the
  // sink is attached.
  void Watch(std::string name, const google::protobuf::FieldMask& view_mask,
             std::shared_ptr<WatchSink> sink, std::function<void(absl::Status)> done);

  // Replays `matches` (MatchStore::AdoptMatches: this replica owns them now), re-arms their
  // clocks and bots and serves them. A match whose log does not replay is skipped, and named
  // in the FAILED_PRECONDITION returned after the others are served.
  absl::Status AdoptMatches(std::vector<ActiveMatch> matches);

  // Stops taking calls (UNAVAILABLE), closes every stream with UNAVAILABLE ("the service is
  // shutting down; reconnect"), stops bots and clocks, and waits for events in flight to be
  // committed. Idempotent.
  void Shutdown();

  int live_matches() const;

 private:
  class Impl;
  explicit MatchHost(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace boneyard::execution

#endif  // BONEYARD_SERVICES_EXECUTION_MATCH_HOST_H_
