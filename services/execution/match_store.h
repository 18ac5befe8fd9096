// What the execution service keeps in PostgreSQL (schema `exec`, migrations in
// services/execution/migrations/): matches with their seat tokens, every match's event log, the
// ended matches' results and records, and the outbox of results for the ratings service.
//
// The event log is the truth: a live match is (game, rules, seed) plus its events, and recovery
// replays them through the engine. The `matches` row itself is written twice: at creation and
// when the match ends (in the same transaction as its last event); a live match's sequence and
// update time are read from memory, never from the row.
//
// The interface knows no gRPC and no threads; PgMatchStore implements it with libpqxx and is
// tested against a real PostgreSQL. Protobuf messages are used as plain data (the schema's
// Match, MatchResult), not as RPCs.
#ifndef BONEYARD_SERVICES_EXECUTION_MATCH_STORE_H_
#define BONEYARD_SERVICES_EXECUTION_MATCH_STORE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "boneyard/v1/execution.pb.h"
#include "boneyard/v1/game.pb.h"
#include "services/common/pg_pool.h"

namespace boneyard::execution {

// A match as CreateMatch makes it.
struct NewMatch {
  // The id, the part of the name after "matches/": 32 lower-case hex digits.
  std::string id;
  // The match as created: name, game, rules (every option resolved), seats, teams, clock,
  // state ACTIVE, sequence 0, create_time and update_time set.
  v1::Match match;
  uint64_t seed = 0;
  // One token per seat, by seat; empty for a built-in bot's seat.
  std::vector<std::string> seat_tokens;
  // Empty when the request had none.
  std::string request_id;
  // A digest of the request without its request_id: a repeat with the same digest returns the
  // stored match, another digest is ALREADY_EXISTS.
  std::string request_digest;
};

struct CreateResult {
  NewMatch match;        // the stored one (for a repeat: the earlier match, as created)
  bool existed = false;  // true: request_id was seen before and nothing was created
};

// One entry of a match's event log.
struct EventRow {
  std::string match_id;
  int64_t sequence = 0;  // 1, 2, 3, ... per match, no gaps
  int seat = -1;         // -1 for an operator abort
  std::string action;    // canonical notation; empty for a forfeit or an abort
  v1::MatchEvent::Reason reason = v1::MatchEvent::PLAYED;
  int round = 0;
  std::string message;   // the operator's reason for an abort
  absl::Time turn_start_time;
  absl::Time create_time;
};

// How a match ended; written in the same transaction as its last event.
struct MatchEnd {
  std::string match_id;
  v1::Match::State state = v1::Match::FINISHED;  // FINISHED or ABORTED
  int64_t sequence = 0;                          // the last event's
  std::optional<v1::MatchResult> result;         // FINISHED only
  std::string record_json;                       // the engine's record (docs/records.md)
  std::string abort_reason;                      // ABORTED only
  absl::Time end_time;
};

// What one group commit writes, atomically.
struct CommitBatch {
  std::vector<EventRow> events;
  std::vector<MatchEnd> ends;  // each also puts a FINISHED match's result in the outbox
};

// An unfinished match to recover at start-up.
struct ActiveMatch {
  NewMatch match;
  std::vector<EventRow> events;  // by sequence
};

struct MatchFilter {
  v1::Match::State state = v1::Match::STATE_UNSPECIFIED;  // any
  std::string game;                                       // empty: any
};

// Newest first: (create_time, id) descending. The cursor is the last row of the previous page.
struct MatchCursor {
  absl::Time create_time;
  std::string id;
};

struct MatchPage {
  std::vector<v1::Match> matches;
  std::optional<MatchCursor> next;  // set when there may be more
};

// Who a seat token belongs to.
struct SeatGrant {
  std::string match_id;
  int seat = 0;
};

// Whether `status` is a store's answer to a fenced replica (FAILED_PRECONDITION marked so):
// another replica found its lease lapsed and may be playing its matches now.
inline constexpr char kFencedPayload[] = "boneyard.execution/fenced";
inline bool IsFenced(const absl::Status& status) {
  return absl::IsFailedPrecondition(status) && status.GetPayload(kFencedPayload).has_value();
}

// A replica of the execution service as it registers (MatchStore::RegisterReplica).
struct ReplicaInfo {
  std::string name;     // for operators: the host or pod name
  std::string address;  // host:port where clients reach it
};

// A live replica and how many matches it plays, as it last said (MatchStore::ShareLoad).
struct ReplicaLoad {
  int64_t epoch = 0;
  std::string address;
  int64_t live_matches = 0;
};

// Who receives finished matches' results from the outbox.
inline constexpr char kRatingsReceiver[] = "ratings";
inline constexpr char kMatchmakingReceiver[] = "matchmaking";

// A finished match's result waiting to be delivered to a receiver: the ratings service (every
// match not created casual) or the matchmaking service (every match with a queue).
struct OutboxItem {
  int64_t id = 0;
  std::string receiver;
  std::string match_id;
  v1::Match match;  // with result, end_time and state FINISHED
  int attempts = 0;
};

// An outbox item parked because its receiver refused it for good.
struct ParkedItem {
  int64_t id = 0;
  std::string receiver;
  std::string match_id;
  int attempts = 0;
  std::string last_error;
  absl::Time park_time;
};

// An ended match's record as stored (MatchStore::GetRecordJson), with the deal group whose
// completion decides whether it may be shown.
struct StoredRecord {
  std::string json;
  std::string deal_group;
};

// A deal group's matches as stored (MatchStore::CountDealGroup).
struct DealGroupProgress {
  int64_t created = 0;
  int64_t active = 0;
};

class MatchStore {
 public:
  virtual ~MatchStore() = default;

  // Inserts the match and its seat tokens. When match.request_id is not empty and was used
  // before: the stored match (existed = true) if its digest is the same, ALREADY_EXISTS naming
  // the stored match otherwise. Concurrent creates with one request_id make one match.
  virtual absl::StatusOr<CreateResult> CreateMatch(const NewMatch& match) = 0;
  // CreateMatch for many, each answered as alone, in order; a store may commit them together
  // (one transaction, one fsync). By default, one after another.
  virtual std::vector<absl::StatusOr<CreateResult>> CreateMatches(
      const std::vector<NewMatch>& matches) {
    std::vector<absl::StatusOr<CreateResult>> results;
    results.reserve(matches.size());
    for (const NewMatch& match : matches) results.push_back(CreateMatch(match));
    return results;
  }

  // Appends the events and applies the ends in one transaction (the group commit).
  // ALREADY_EXISTS when an event's (match_id, sequence) is stored already.
  virtual absl::Status Commit(const CommitBatch& batch) = 0;

  // Every ACTIVE match with its events, oldest first.
  virtual absl::StatusOr<std::vector<ActiveMatch>> LoadActiveMatches() = 0;

  // The stored match: for an ACTIVE one, as created (sequence 0); for an ended one, with
  // state, sequence, result, abort_reason, update_time and end_time. NOT_FOUND.
  virtual absl::StatusOr<v1::Match> GetMatch(const std::string& id) = 0;
  // The stored tokens of a match, by seat (empty for bots). NOT_FOUND.
  virtual absl::StatusOr<NewMatch> GetNewMatch(const std::string& id) = 0;
  // Up to page_size matches after `after`, newest first, as GetMatch returns them.
  virtual absl::StatusOr<MatchPage> ListMatches(const MatchFilter& filter, int page_size,
                                                const std::optional<MatchCursor>& after) = 0;
  // The record JSON of an ended match, and its deal group's name (empty for most). NOT_FOUND;
  // FAILED_PRECONDITION while ACTIVE.
  virtual absl::StatusOr<StoredRecord> GetRecordJson(const std::string& id) = 0;
  // The latest event of a match; nullopt when it has none. NOT_FOUND for an unknown match.
  virtual absl::StatusOr<std::optional<EventRow>> LastEvent(const std::string& id) = 0;
  // NOT_FOUND for a token no match has.
  virtual absl::StatusOr<SeatGrant> FindSeatToken(const std::string& token) = 0;
  // How many matches of deal group `name` are stored, and how many of them are ACTIVE.
  // UNIMPLEMENTED where a store keeps no groups.
  virtual absl::StatusOr<DealGroupProgress> CountDealGroup(const std::string& name) {
    return absl::UnimplementedError("this store keeps no deal groups");
  }

  // --- Replicas (docs/scaling.md). A store registered as a replica owns the matches it creates
  // and adopts, and its commits are fenced: once another replica has found its lease lapsed and
  // fenced it, Commit is FAILED_PRECONDITION and stores nothing, for good. A store that never
  // registers commits unfenced (one process, as before replicas). UNIMPLEMENTED where a store
  // keeps no replicas.

  // Registers this store as a new replica (a new epoch, never reused, returned), its lease
  // running `lease` from now on the database's clock.
  virtual absl::StatusOr<int64_t> RegisterReplica(const ReplicaInfo& info, absl::Duration lease) {
    return absl::UnimplementedError("this store keeps no replicas");
  }
  // Extends the lease to `lease` from now; FAILED_PRECONDITION once the replica is fenced.
  virtual absl::Status RenewLease(absl::Duration lease) {
    return absl::UnimplementedError("this store keeps no replicas");
  }
  // Where clients reach this replica from now on (once its port is known). Earlier replicas
  // registered at the same address are fenced: clients sent there would reach this one.
  virtual absl::Status SetReplicaAddress(const std::string& address) {
    return absl::UnimplementedError("this store keeps no replicas");
  }
  // Gives the lease up at once (a clean exit): the replica is fenced, and the others may adopt
  // its matches without waiting for the lease to lapse.
  virtual absl::Status ReleaseLease() {
    return absl::UnimplementedError("this store keeps no replicas");
  }
  // A draining replica's last write: fences this replica and gives its ACTIVE matches to the
  // live replicas (lease not lapsed, not fenced), each to the one with the fewest ACTIVE matches
  // at that moment, in one transaction; each receiver loads them when it next looks
  // (AdoptMatches, TakeHandedOver). How many were handed over; with no live replica none are,
  // and the matches wait for whoever adopts next, as after ReleaseLease.
  virtual absl::StatusOr<int> HandOver() {
    return absl::UnimplementedError("this store keeps no replicas");
  }
  // Up to `limit` matches handed to this replica (HandOver) and not loaded yet, as
  // LoadActiveMatches returns them; each is returned once.
  virtual absl::StatusOr<std::vector<ActiveMatch>> TakeHandedOver(int limit) {
    return absl::UnimplementedError("this store keeps no replicas");
  }
  // Records that this replica plays `live_matches` matches, and returns every live replica's
  // last such count (this one's included): where new matches go (placement.h).
  virtual absl::StatusOr<std::vector<ReplicaLoad>> ShareLoad(int64_t live_matches) {
    return absl::UnimplementedError("this store keeps no replicas");
  }
  // Where match `id` is played: the address of its owner while the owner is not fenced; nullopt
  // otherwise (unowned, or its owner fenced and the match not adopted yet). A match that ended
  // keeps its owner, so a call that raced with its end is sent where it is answered right.
  virtual absl::StatusOr<std::optional<std::string>> ReplicaAddressOf(const std::string& id) {
    return absl::UnimplementedError("this store keeps no replicas");
  }
  // Takes the matches handed to this replica (TakeHandedOver), then fences every other replica
  // whose lease has lapsed and makes this replica the owner of ACTIVE matches whose owner is
  // fenced (or who have none), oldest first: at most `limit` in all, returned as
  // LoadActiveMatches does. Replicas adopting at once get different matches.
  // FAILED_PRECONDITION when this store is not a registered, unfenced replica.
  virtual absl::StatusOr<std::vector<ActiveMatch>> AdoptMatches(int limit) {
    return absl::UnimplementedError("this store keeps no replicas");
  }

  // Outbox: up to `limit` of `receiver`'s undelivered items whose next attempt is due, oldest
  // first.
  virtual absl::StatusOr<std::vector<OutboxItem>> PendingOutbox(const std::string& receiver,
                                                                int limit, absl::Time now) = 0;
  // PendingOutbox for one of several replicas delivering the same outbox: the items returned
  // are claimed — not due again until `claim_for` after `now` — so replicas polling at once
  // deliver different items instead of all of them each (docs/scaling.md). A replica that dies
  // holding a claim only delays those items by `claim_for`. Where a store does not claim, it is
  // PendingOutbox.
  virtual absl::StatusOr<std::vector<OutboxItem>> ClaimOutbox(const std::string& receiver,
                                                              int limit, absl::Time now,
                                                              absl::Duration claim_for) {
    return PendingOutbox(receiver, limit, now);
  }
  // Claimed items left undelivered (a pass that stopped early) due again at `now`.
  virtual absl::Status ReleaseOutbox(const std::vector<int64_t>& outbox_ids, absl::Time now) {
    return absl::OkStatus();
  }
  // How many of `receiver`'s items wait for delivery (due or backing off; parked ones not):
  // the delivery backlog operators watch. UNIMPLEMENTED where a store does not count.
  virtual absl::StatusOr<int64_t> CountPendingOutbox(const std::string& receiver) {
    return absl::UnimplementedError("this store does not count its outbox");
  }
  virtual absl::Status MarkDelivered(int64_t outbox_id, absl::Time when) = 0;
  virtual absl::Status MarkFailed(int64_t outbox_id, const std::string& error,
                                  absl::Time next_attempt) = 0;
  // Parks an undelivered item that can never be delivered (the receiver refuses it for good):
  // it keeps `error` and is no longer returned by PendingOutbox. NOT_FOUND for no such item;
  // FAILED_PRECONDITION when it was delivered meanwhile.
  virtual absl::Status MarkParked(int64_t outbox_id, const std::string& error,
                                  absl::Time when) = 0;
  // Parked items with an id above `after_id`, oldest first, at most `limit`.
  virtual absl::StatusOr<std::vector<ParkedItem>> ListParked(int limit, int64_t after_id) = 0;
  // A parked item back in the queue, due at `now` (its record as it was parked); NOT_FOUND when
  // no item `outbox_id` is parked.
  virtual absl::StatusOr<ParkedItem> RetryParked(int64_t outbox_id, absl::Time now) = 0;
  // A parked item removed from the outbox (its record); NOT_FOUND as RetryParked.
  virtual absl::StatusOr<ParkedItem> DropParked(int64_t outbox_id) = 0;
};

// The libpqxx implementation over `pool` (which must outlive it). Applies the migrations of
// services/execution/migrations/, compiled into the binary, to `schema` before returning; every
// query names its tables with that schema (tests use a schema of their own).
absl::StatusOr<std::unique_ptr<MatchStore>> OpenPgMatchStore(PgPool& pool,
                                                             const std::string& schema = "exec");

}  // namespace boneyard::execution

#endif  // BONEYARD_SERVICES_EXECUTION_MATCH_STORE_H_
