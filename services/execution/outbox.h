// Delivery of finished matches' results from the outbox (the `outbox` table, written by
// MatchStore::Commit in the transaction that ends a match) to whoever rates them.
//
//   OutboxDispatcher dispatcher(store, sink, {});
//   dispatcher.Start();
//   ...  // when a match finishes:
//   dispatcher.Wake();
//
// The ratings service's RecordResult will be the real sink (issue 4). Until then the service
// runs without a sink (and without a dispatcher), and results wait in the outbox: nothing is
// lost, they are delivered once a sink exists.
//
// Delivery is at least once: a crash between a successful Deliver and MarkDelivered delivers
// that result again, so a sink must be idempotent on the match id (RecordResult is).
#ifndef BONEYARD_SERVICES_EXECUTION_OUTBOX_H_
#define BONEYARD_SERVICES_EXECUTION_OUTBOX_H_

#include <functional>
#include <optional>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/execution/match_store.h"

namespace boneyard::execution {

// Where results go.
class ResultSink {
 public:
  virtual ~ResultSink();
  // Delivers one result; OK once the receiver has it for good. Any error is retried later.
  virtual absl::Status Deliver(const OutboxItem& item) = 0;
};

// A thread that delivers the outbox's due items to a sink, oldest first, and marks each
// delivered. A failed item gets MarkFailed with its next attempt after a backoff that doubles
// with its failures (options.initial_backoff, 2x, 4x, ... up to options.max_backoff), and the
// pass ends there: the sink is likely down, so the rest waits for the next poll instead of
// failing one by one. Other items are not held back behind a failing one after that, so order
// is kept while the sink is healthy, not across a failing item's retries.
// An item the sink refuses for good (INVALID_ARGUMENT, FAILED_PRECONDITION, ALREADY_EXISTS,
// OUT_OF_RANGE: the same delivery would fail again) is parked instead (MarkParked): kept with
// its error for an operator, logged at error level, counted (on_parked), never retried; the
// pass goes on with the next item, since the sink is up.
class OutboxDispatcher {
 public:
  struct Options {
    // Whose items it delivers (kRatingsReceiver, kMatchmakingReceiver): one dispatcher, and
    // one sink, per receiver, so one receiver's outage never delays another's results.
    std::string receiver = kRatingsReceiver;
    absl::Duration poll_interval = absl::Seconds(1);
    int batch = 100;  // items per PendingOutbox query
    // Positive: the items are claimed for this long (MatchStore::ClaimOutbox), so the
    // dispatchers of several replicas deliver different items; zero: PendingOutbox, every
    // dispatcher sees every due item (one process).
    absl::Duration claim_for = absl::ZeroDuration();
    absl::Duration initial_backoff = absl::Seconds(1);
    absl::Duration max_backoff = absl::Minutes(5);
    std::function<void()> on_parked = nullptr;  // may be empty: for a metric
    // After each pass: how many items still wait for delivery (CountPendingOutbox); may be
    // empty. For the backlog gauge.
    std::function<void(int64_t)> on_backlog = nullptr;
  };

  // `store` and `sink` must outlive the dispatcher.
  OutboxDispatcher(MatchStore& store, ResultSink& sink, Options options);
  // Stop()s first.
  ~OutboxDispatcher();

  OutboxDispatcher(const OutboxDispatcher&) = delete;
  OutboxDispatcher& operator=(const OutboxDispatcher&) = delete;

  // Starts the thread: a pass at once, then one every poll_interval or on Wake(). Once only;
  // does nothing after Stop().
  void Start();
  // Asks for a pass now (a match has finished).
  void Wake();
  // Ends the current pass after the item being delivered, and joins the thread. Idempotent.
  void Stop();

  // One pass on the caller's thread (the thread runs these): delivers every item due now, in
  // batches, until none is left or one fails. Returns how many were delivered; an error of
  // the store (the sink's errors are recorded on their items, not returned).
  absl::StatusOr<int> DeliverDue();

  // The delay before the next attempt of an item that has failed `failures` times before the
  // current failure: initial_backoff * 2^failures, at most max_backoff.
  absl::Duration Backoff(int failures) const;

 private:
  void Run();
  bool WokenOrStopping() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return woken_ || stopping_; }
  bool Stopping() ABSL_LOCKS_EXCLUDED(mu_);

  MatchStore& store_;
  ResultSink& sink_;
  const Options options_;

  absl::Mutex mu_;
  bool woken_ ABSL_GUARDED_BY(mu_) = false;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::optional<std::thread> thread_ ABSL_GUARDED_BY(mu_);
};

}  // namespace boneyard::execution

#endif  // BONEYARD_SERVICES_EXECUTION_OUTBOX_H_
