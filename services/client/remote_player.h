// A seat played over the execution service's `Play` stream (proto/boneyard/v1/execution.proto)
// by a program: the remote bots of `boneyard bot` and `boneyard load`.
//
// Built on gRPC's async API over the process's client queues (client_queues.h: one per core,
// each with a thread), so a player costs no thread: one process runs thousands. The player
// sends a hello; on every view where it is its seat's turn (current_seat == seat, not terminal,
// legal actions offered) it asks its chooser for an action and sends it with
// `seen_sequence = view.sequence`. Writes are queued: one is outstanding at a time.
//
// Rejections: ABORTED (another event came first) waits for the next view. Any other code is an
// error: it is counted, and while the view it answered is still current the chooser is asked
// again; after `max_consecutive_errors` such rejections in a row the player gives up (its status
// is FAILED_PRECONDITION quoting the last rejection) and cancels the stream.
//
// Latency: for each action sent, the time from sending it to the first view with
// `sequence > seen_sequence` whose `last_event.seat` is this seat (the acknowledgement).
//
// Reconnect: with `RemotePlayerOptions::reconnect`, a stream that fails with UNAVAILABLE (the
// service restarting; also CANCELLED when the player did not cancel it: a server shutting down
// past its grace period cancels its calls) is reopened with a fresh hello after a backoff
// (100 ms doubling to 2 s) until a stream works again or `give_up_after` has passed since the
// failure. The hello's view says where the match stands, so an action whose answer was lost is
// chosen again. With `follow_replica`, an answer naming another execution replica moves the
// player there at once (docs/scaling.md; even with a zero `give_up_after`), and a replica
// followed to that stops answering sends it back to the stub it was made with (the home
// address, which knows who adopted the match).
//
//   RemotePlayer player(*stub, "matches/8f3c", token, RandomChooser(7));
//   player.Start();
//   absl::Status status = player.Wait();      // OK: the match ended; last_view() is terminal
#ifndef BONEYARD_SERVICES_CLIENT_REMOTE_PLAYER_H_
#define BONEYARD_SERVICES_CLIENT_REMOTE_PLAYER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "boneyard/v1/execution.grpc.pb.h"
#include "google/protobuf/field_mask.pb.h"
#include "services/client/client_queues.h"
#include "services/common/replica_router.h"

namespace boneyard::client {

// Picks the action to play (its text) from a seat's view, or nullopt to not act on this view.
// Called on a client queue's thread, never twice at once for one player; it must not block.
using Chooser = std::function<std::optional<std::string>(const v1::SeatView&)>;

// Uniform over the view's legal actions with the engine's portable RNG: the same seed and the
// same views give the same choices. Keeps its RNG inside; give each player its own.
Chooser RandomChooser(uint64_t seed);

// The SeatView fields a RemotePlayer reads (seat, sequence, current_seat, terminal,
// legal_actions, last_event): the smallest view_mask for a chooser that picks from the legal
// actions.
google::protobuf::FieldMask PlayingViewMask();

struct ReconnectPolicy {
  // Stop retrying when no stream has worked for this long since the failure.
  absl::Duration give_up_after = absl::Seconds(30);
  absl::Duration initial_backoff = absl::Milliseconds(100);
  absl::Duration max_backoff = absl::Seconds(2);
};

// A stub for the execution replica at `address` (host:port): how a player follows its match.
using StubFactory =
    std::function<std::shared_ptr<v1::ExecutionService::StubInterface>(const std::string&)>;

// The stubs `router` keeps, one per address for all the players given the factory (thousands
// of players follow to a handful of replicas).
StubFactory StubsOf(std::shared_ptr<ReplicaRouter> router);
// StubsOf a router of its own: plaintext channels.
StubFactory PlaintextStubs();

struct RemotePlayerOptions {
  // Reopen a stream that fails with UNAVAILABLE (or CANCELLED by the server); unset: such a
  // failure ends the player.
  std::optional<ReconnectPolicy> reconnect;
  // With `reconnect`: an UNAVAILABLE answer naming the replica that plays the match (a
  // WrongReplica detail, docs/scaling.md) is followed — the stream is reopened at once on a stub
  // for that address made by this — instead of retrying the same replica. Unset: retried there.
  StubFactory follow_replica;
  // Rejections other than ABORTED in a row before the player gives up.
  int max_consecutive_errors = 3;
  // Sent with every hello: the SeatView fields the views carry (empty: all). The player reads
  // the fields of PlayingViewMask(); a mask must include them.
  google::protobuf::FieldMask view_mask;
  // Sent with every hello: the views of every earlier event come first (a reconnect's too), so
  // on_view sees the whole match however late the stream opens (PlayRequest.replay_events).
  bool replay_events = false;
  // The pause before sending each action, as a person or a slower program would take, asked
  // for each action (fixed or drawn at random); latency is measured from the send. Unset: at
  // once. Called on a client queue's thread, never twice at once for one player, like the
  // chooser; it must not block.
  std::function<absl::Duration()> think;
  // Called for every view and every rejection received, on a client queue's thread, one call
  // at a time and before the chooser sees the view. Must not block or call into the player.
  std::function<void(const v1::SeatView&)> on_view;
  std::function<void(const v1::ActionRejected&)> on_rejected;
  // Called once when the player is done, with the status Wait() returns, on a client queue's
  // thread (or on the thread calling Cancel). Must not block; it may signal another thread,
  // which may then destroy the player.
  std::function<void(const absl::Status&)> on_done;
};

struct RemotePlayerStats {
  int64_t views = 0;
  int64_t actions_sent = 0;
  int64_t actions_acknowledged = 0;
  // ABORTED rejections: stale sequence numbers, a normal race.
  int64_t stale_rejections = 0;
  // Every other rejection (INVALID_ARGUMENT, FAILED_PRECONDITION).
  int64_t error_rejections = 0;
  // Streams opened again after UNAVAILABLE.
  int64_t reconnects = 0;
  // One per acknowledged action, in the order acknowledged, and when each was acknowledged.
  std::vector<absl::Duration> latencies;
  std::vector<absl::Time> acknowledged_at;
  // And when the service applied each (its event's create_time, by the service's clock);
  // InfinitePast when the view did not say.
  std::vector<absl::Time> applied_at;
};

class RemotePlayer {
 public:
  // `stub` must outlive the player. `match` is "matches/{id}"; `seat_token` is sent as
  // `authorization: Bearer <token>`.
  RemotePlayer(v1::ExecutionService::StubInterface& stub, std::string match,
               std::string seat_token, Chooser chooser, RemotePlayerOptions options = {});
  // Cancels a player still running and waits for it to finish. Never call it from one of the
  // player's own callbacks.
  ~RemotePlayer();

  RemotePlayer(const RemotePlayer&) = delete;
  RemotePlayer& operator=(const RemotePlayer&) = delete;

  // Opens the stream and sends the hello. Call once.
  void Start();
  // Ends the player: the stream is cancelled, a pending reconnect dropped. Wait() then returns
  // CANCELLED, or OK when the match had already ended.
  void Cancel();

  // Blocks until the player is done: OK when the terminal view arrived (the match finished,
  // was forfeited or aborted), else why not (the stream's status, the last rejection, ...).
  // By then the player's call and its context are gone, so the stub's channel may go too.
  absl::Status Wait();
  // Like Wait() but gives up after `timeout`; nullopt when still running.
  std::optional<absl::Status> WaitFor(absl::Duration timeout);
  bool done() const;

  // A snapshot; safe to call at any time from any thread (not from the callbacks).
  RemotePlayerStats stats() const;
  // The latest view received (the terminal one once the match has ended).
  std::optional<v1::SeatView> last_view() const;
  const std::string& match() const { return match_; }

 private:
  class Core;
  class Stream;

  std::string match_;
  // Declared before core_: the queues go last, once nothing of the player can complete on them.
  std::shared_ptr<ClientQueues> queues_;
  std::shared_ptr<Core> core_;
};

}  // namespace boneyard::client

#endif  // BONEYARD_SERVICES_CLIENT_REMOTE_PLAYER_H_
