// The matchmaker: runs the matching library's pass over every queue's searching tickets, records
// each formed match with its tickets claimed, and has execution create it. No gRPC (execution
// is a MatchCreator), no SQL (the store).
//
// Every pass, in order:
//   1. per queue: end EXPIRED the tickets past the queue's max_wait; read the searching
//      tickets; RunPass; claim each formed match's tickets and record it, all or nothing per
//      match, all of the queue's matches in one transaction (PgMatchmakingStore::ClaimMatches)
//      — a match whose ticket was cancelled or claimed meanwhile (by another pass, here or in
//      another process) is dropped whole;
//   2. every recorded match not yet created — this pass's, and any a crash, an outage or
//      another process left — is sent to execution, several at once. Its request_id is
//      derived from its tickets and the request is stored before it is sent, so a resend
//      (after a crash, a timeout, by a second process) can only ever return the same match.
//      Execution's answer is recorded and the tickets end MATCHED. A transient failure
//      (execution down) leaves the match to the next pass; a refusal for good (the request is
//      invalid) cancels its tickets.
//
//   Matchmaker matchmaker(store, creator, {.interval = absl::Seconds(1)});
//   matchmaker.Start();   // a pass every interval on a thread of its own
//   ...
//   matchmaker.Stop();    // waits for the pass under way
#ifndef BONEYARD_SERVICES_MATCHMAKING_MATCHMAKER_H_
#define BONEYARD_SERVICES_MATCHMAKING_MATCHMAKER_H_

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "boneyard/v1/execution.pb.h"
#include "services/common/batch_queue.h"
#include "services/common/pass_loop.h"
#include "services/matchmaking/matching/pass.h"
#include "services/matchmaking/matchmaker_metrics.h"
#include "services/matchmaking/pg_matchmaking_store.h"
#include "services/matchmaking/rating_cache.h"

namespace boneyard::matchmaking {

// A match execution created (or had created for this request_id before).
struct CreatedMatch {
  std::string name;  // "matches/{id}"
  // By seat; empty for built-in bots.
  std::vector<std::string> seat_tokens;
};

// Execution, as the matchmaker sees it.
class MatchCreator {
 public:
  virtual ~MatchCreator() = default;
  // Creates the match, or returns the one created before for the same request_id.
  virtual absl::StatusOr<CreatedMatch> CreateMatch(const v1::CreateMatchRequest& request) = 0;
  // Where players play it (host:port), as shown in their assignments.
  virtual std::string target() const = 0;
};

// Execution's answers to CreateMatch that will not change on a resend (the request itself is
// wrong): the matchmaker and the tournament director give up on such a match rather than
// retry it every pass.
bool RefusedForGood(const absl::Status& status);

// How many of a player's last matches in a team queue count for "recent partners", whom a
// team split keeps apart when it can (matching/team_split.h).
inline constexpr int kRecentPartnerMatches = 3;

struct MatchmakerOptions {
  // Players' ratings (the ratings service, cached); null: everyone at the initial rating.
  RatingSource* ratings = nullptr;
  // How often a pass runs.
  absl::Duration interval = absl::Seconds(1);
  // The most recorded matches sent to execution in one pass.
  int max_creations_per_pass = 2000;
  // How many of them are sent at once. Each waits for execution's commit, so more at once
  // share more of its fsyncs; execution's own connection pool bounds what this buys.
  int parallel_creations = 64;
  // Where passes are counted and timed; null: a registry of the matchmaker's own that nobody
  // serves. Must outlive the matchmaker.
  MatchmakerMetrics* metrics = nullptr;
};

// What one pass did.
struct PassReport {
  int queues = 0;     // passed over: held by this process, not another replica
  int searching = 0;  // tickets read
  int expired = 0;
  int formed = 0;   // matches the library formed
  int claimed = 0;  // of those, recorded with their tickets
  int lost = 0;     // dropped: a ticket was cancelled or claimed elsewhere meanwhile
  int created = 0;  // confirmed by execution
  int retry = 0;    // left for the next pass: execution unavailable
  int refused = 0;  // refused for good: tickets cancelled
};

// The request id of the match formed from `ticket_ids` (in any order): the same tickets always
// give the same id, and tickets are never in two matches, so it names one match for ever.
std::string FormedMatchRequestId(std::vector<std::string> ticket_ids);

class Matchmaker {
 public:
  // `store` and `creator` must outlive the matchmaker.
  Matchmaker(PgMatchmakingStore& store, MatchCreator& creator, MatchmakerOptions options = {});
  ~Matchmaker();

  Matchmaker(const Matchmaker&) = delete;
  Matchmaker& operator=(const Matchmaker&) = delete;

  // One pass at `now` (tests call it directly; Start calls it every interval).
  absl::StatusOr<PassReport> RunPass(absl::Time now);

  // Runs a pass every interval on a thread of its own until Stop.
  void Start();
  // Stops the thread after the pass under way. Idempotent.
  void Stop();
  // Asks for a pass now rather than at the end of the interval (a ticket arrived: a table may
  // be full). Passes still never overlap: one asked for during a pass runs right after it.
  void Wake();

 private:
  // RunPass without its metrics.
  absl::StatusOr<PassReport> PassOverQueues(absl::Time now);
  // Step 1 for one queue.
  absl::Status MatchQueue(const QueueRow& queue_row, absl::Time now, PassReport& report);
  // Step 2, and one match of it: UNAVAILABLE when execution is out of reach.
  // Sends the formed matches of `queue_ids` (and of deleted queues) not yet created.
  absl::Status CreatePending(const std::vector<std::string>& queue_ids, absl::Time now,
                             PassReport& report);
  absl::Status CreateOne(const FormedMatchRow& match, absl::Time now, PassReport& report);
  // What a queue's claimed matches tell the metrics: waits, balance, bot seats.
  void RecordClaimed(const std::string& queue_id, const std::vector<FormedMatch>& formed,
                     const std::vector<bool>& claimed, const std::vector<TicketRow>& rows,
                     absl::Time now);

  PgMatchmakingStore& store_;
  MatchCreator& creator_;
  const MatchmakerOptions options_;
  // The metrics counted into: options_.metrics, or these when it is null (the code that
  // counts is the same either way, as in execution's HostMetrics).
  std::unique_ptr<prometheus::Registry> own_registry_;
  std::unique_ptr<MatchmakerMetrics> own_metrics_;
  MatchmakerMetrics& metrics_;

  // Created matches' confirmations, many to a transaction.
  BatchQueue<CreatedRecord, absl::Status> created_records_;
  // Guards the report while creations run in parallel.
  absl::Mutex report_mu_;
  // Last: destroyed (stopped) first, before what its passes use.
  PassLoop loop_;
};

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_MATCHMAKER_H_
