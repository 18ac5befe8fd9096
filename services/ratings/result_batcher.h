// Group commit for RecordResult: one writer thread takes every result queued (up to max_batch),
// applies them in one transaction (PgRatingStore::RecordBatch) and only then answers each.
// Batching is what makes durable results cheap — one commit, and one fsync, for hundreds of
// results — and the single writer is what makes them correct under concurrency without luck:
// results are applied one after another in the order they were queued (arrival order), each
// against the ratings the previous one left, and two deliveries of one match can never be
// rated side by side (the second finds the first's idempotency record, in the database or
// earlier in its batch). Across processes the store's per-game advisory locks serialise
// writers the same way, and the results table's primary key is the backstop.
//
//   ResultBatcher batcher(store, {.max_batch = 512});
//   batcher.Record(std::move(valid_result), [](RecordOutcome outcome) { ... });
//
// A batch whose transaction fails with a transient error (UNAVAILABLE, ABORTED,
// DEADLINE_EXCEEDED, UNKNOWN — the commit may or may not have happened, and the retry finds
// out — or ALREADY_EXISTS, a match id written meanwhile by another process) is retried with
// backoff for up to `retry_for`; after that, or on an error that is neither transient nor the
// data's, every result of the batch is answered UNAVAILABLE and nothing of it is stored. An
// error of a result's own data (INVALID_ARGUMENT: a row the database cannot store;
// FAILED_PRECONDITION; OUT_OF_RANGE) is not retried: the batch is split in halves, each
// committed on its own in arrival order, down to single results, so only the offender fails
// (with its error) and the others are stored.
//
// RunExclusive runs a task (RerateGame) on the writer between batches: results queued before
// it are committed first, results queued after it wait until it is done.
#ifndef BONEYARD_SERVICES_RATINGS_RESULT_BATCHER_H_
#define BONEYARD_SERVICES_RATINGS_RESULT_BATCHER_H_

#include <deque>
#include <functional>
#include <optional>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/ratings/match_result.h"
#include "services/ratings/pg_rating_store.h"

namespace boneyard::ratings {

// One batch's transaction, for metrics: called on the writer after each attempt.
struct BatchStats {
  int results = 0;
  absl::Duration latency;
  bool ok = true;
};

class ResultBatcher {
 public:
  struct Options {
    int max_batch = 512;
    absl::Duration retry_for = absl::Seconds(5);
    std::function<void(const BatchStats&)> on_commit = nullptr;  // may be empty
  };
  using Done = std::function<void(RecordOutcome)>;
  using Task = std::function<void(absl::Status)>;

  // Starts the writer. `store` must outlive the batcher.
  ResultBatcher(PgRatingStore& store, Options options);
  // Stop()s.
  ~ResultBatcher();

  ResultBatcher(const ResultBatcher&) = delete;
  ResultBatcher& operator=(const ResultBatcher&) = delete;

  // Queues `result`; `done` runs on the writer once its batch has committed or failed for
  // good. After Stop(), `done` gets UNAVAILABLE at once.
  void Record(ValidResult result, Done done);
  // Queues `task`, which the writer runs with OK between batches; after Stop(), it runs at
  // once with UNAVAILABLE.
  void RunExclusive(Task task);
  // Lets the writer finish everything queued, then joins it. Idempotent.
  void Stop();

 private:
  struct Item {
    std::optional<ValidResult> result;  // a result, or else
    Done done;
    Task task;  // an exclusive task
  };

  void WriterLoop();
  // The batch's outcomes: split around results whose data fails (each answered with its own
  // error); after a transient failure has been retried for retry_for, UNAVAILABLE for each.
  std::vector<RecordOutcome> Commit(const std::vector<const ValidResult*>& batch);
  // store_.RecordBatch(batch), retrying transient failures with backoff.
  absl::StatusOr<std::vector<RecordOutcome>> CommitWithRetry(
      const std::vector<const ValidResult*>& batch);

  PgRatingStore& store_;
  const Options options_;

  absl::Mutex mu_;
  absl::CondVar work_ready_;
  std::deque<Item> queue_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::optional<std::thread> writer_ ABSL_GUARDED_BY(mu_);
};

}  // namespace boneyard::ratings

#endif  // BONEYARD_SERVICES_RATINGS_RESULT_BATCHER_H_
