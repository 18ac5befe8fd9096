// Group commit: many matches' events become durable in one transaction. Each match has at most
// one event in flight (its strand waits for the commit before it applies the next), so batching
// across matches is what lets durability keep up with thousands of matches: a commit's fsync is
// shared by every event in it.
//
//   GroupCommitter log(store, {.writers = 1, .max_batch = 512,
//                              .min_interval = absl::Milliseconds(2)});
//   log.Append(std::move(event), std::nullopt, [](absl::Status s) { ... });
//
// Writers are threads, each with its own database connection (through the store's pool): a
// writer takes everything queued (up to max_batch; not before min_interval has passed since
// the last batch was taken, unless max_batch events wait), commits it, then runs the callbacks
// in order. A transient failure (UNAVAILABLE, ABORTED, DEADLINE_EXCEEDED, UNKNOWN) is retried
// with backoff up to `retry_for`; after that every callback of the batch gets the error and
// nothing of the batch is stored. A failure that belongs to the data (INVALID_ARGUMENT: a row
// the database cannot store; ALREADY_EXISTS; FAILED_PRECONDITION; OUT_OF_RANGE) is not
// retried: the batch is split in two and each half committed on its own, down to single
// events, so only the offending events fail, each with its own error, and every other event
// of the batch is stored. One bad event costs about 2·log2(batch) extra commits. Any other
// error (INTERNAL: a bug) fails the whole batch.
#ifndef BONEYARD_SERVICES_EXECUTION_GROUP_COMMIT_H_
#define BONEYARD_SERVICES_EXECUTION_GROUP_COMMIT_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/execution/match_store.h"

namespace boneyard::execution {

// Observes commits (for metrics); called on a writer thread after each commit attempt.
struct CommitStats {
  int events = 0;
  absl::Duration latency;  // of the successful (or last failed) transaction
  bool ok = true;
};

class GroupCommitter {
 public:
  struct Options {
    int writers = 1;
    int max_batch = 512;
    // The least time between the starts of two commits (across writers): events that come
    // meanwhile wait and share the next commit, unless max_batch of them are already waiting.
    // Each commit costs the database a transaction and an fsync and the service a round trip,
    // whatever its size, so at thousands of events a second a short wait buys much larger
    // batches for a bounded latency (docs/performance.md). Zero: commit as soon as a writer
    // is free.
    absl::Duration min_interval = absl::ZeroDuration();
    absl::Duration retry_for = absl::Seconds(30);
    std::function<void(const CommitStats&)> on_commit = nullptr;  // may be empty
  };
  using Callback = std::function<void(absl::Status)>;

  GroupCommitter(MatchStore& store, Options options);
  // Stop()s first.
  ~GroupCommitter();

  // Queues an event (and the match's end, for its last event). `done` runs on a writer thread
  // once the batch holding it has committed (OK) or failed for good. After Stop(), `done` gets
  // UNAVAILABLE at once.
  void Append(EventRow event, std::optional<MatchEnd> end, Callback done);
  // Blocks until everything appended before the call has been committed or failed.
  void Flush();
  // Flushes, then stops the writers. Idempotent.
  void Stop();

 private:
  struct Pending {
    EventRow event;
    std::optional<MatchEnd> end;
    Callback done;
  };

  // A writer thread: takes batches until Stop() has been called and the queue is empty.
  void WriterLoop();
  // store_.Commit(batch), retrying transient failures with backoff up to options_.retry_for.
  absl::Status CommitWithRetry(const CommitBatch& batch);
  // Commits `batch`, splitting it when an event's data fails it; writes each event's outcome to
  // statuses[offset + i].
  void CommitIsolating(CommitBatch batch, size_t offset, std::vector<absl::Status>& statuses);

  MatchStore& store_;
  const Options options_;
  const size_t max_batch_;  // options_.max_batch, at least 1

  absl::Mutex mu_;
  absl::CondVar work_ready_;  // queue_ has work, or stopping_ was set
  absl::CondVar completed_changed_;
  std::deque<Pending> queue_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  // Callbacks run in append order across all writers: batches are numbered as writers take
  // them, and a batch's callbacks run once the previous batch's have. So everything appended
  // before the n-th Append has completed exactly when completed_ >= n (what Flush waits for).
  int64_t appended_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t completed_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t batches_taken_ ABSL_GUARDED_BY(mu_) = 0;
  // When the last batch was taken (min_interval counts from there).
  absl::Time last_taken_ ABSL_GUARDED_BY(mu_) = absl::InfinitePast();
  int64_t batches_completed_ ABSL_GUARDED_BY(mu_) = 0;
  std::vector<std::thread> writers_ ABSL_GUARDED_BY(mu_);
};

}  // namespace boneyard::execution

#endif  // BONEYARD_SERVICES_EXECUTION_GROUP_COMMIT_H_
