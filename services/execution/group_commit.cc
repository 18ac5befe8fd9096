#include "services/execution/group_commit.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "services/common/internal_error.h"
#include "services/common/threads.h"

namespace boneyard::execution {
namespace {

constexpr absl::Duration kFirstBackoff = absl::Milliseconds(10);
constexpr absl::Duration kMaxBackoff = absl::Seconds(1);

bool IsTransient(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kUnavailable:
    case absl::StatusCode::kAborted:
    case absl::StatusCode::kDeadlineExceeded:
    case absl::StatusCode::kUnknown:
      return true;
    default:
      return false;
  }
}

// `batch`'s events [0, mid) and [mid, n) as two batches; each match's end goes with its event.
std::pair<CommitBatch, CommitBatch> Split(CommitBatch batch, size_t mid) {
  CommitBatch first;
  CommitBatch second;
  absl::flat_hash_set<std::string> in_first;
  for (size_t i = 0; i < batch.events.size(); ++i) {
    if (i < mid) in_first.insert(batch.events[i].match_id);
    (i < mid ? first : second).events.push_back(std::move(batch.events[i]));
  }
  for (MatchEnd& end : batch.ends) {
    (in_first.contains(end.match_id) ? first : second).ends.push_back(std::move(end));
  }
  return {std::move(first), std::move(second)};
}

}  // namespace

GroupCommitter::GroupCommitter(MatchStore& store, Options options)
    : store_(store),
      options_(std::move(options)),
      max_batch_(static_cast<size_t>(std::max(1, options_.max_batch))) {
  const int writers = std::max(1, options_.writers);
  absl::MutexLock lock(&mu_);
  writers_.reserve(writers);
  for (int i = 0; i < writers; ++i) {
    writers_.emplace_back([this] {
      SetThreadName("commit-writer");
      WriterLoop();
    });
  }
}

GroupCommitter::~GroupCommitter() { Stop(); }

void GroupCommitter::Append(EventRow event, std::optional<MatchEnd> end, Callback done) {
  {
    absl::MutexLock lock(&mu_);
    if (!stopping_) {
      queue_.push_back(Pending{std::move(event), std::move(end), std::move(done)});
      ++appended_;
      // A writer waits for the first event, or for a full batch while it lets events gather:
      // waking it for each event in between would cost a context switch an event.
      if (queue_.size() == 1 || queue_.size() == max_batch_) work_ready_.Signal();
      return;
    }
  }
  if (done) done(absl::UnavailableError("the event log is shutting down"));
}

void GroupCommitter::Flush() {
  absl::MutexLock lock(&mu_);
  const int64_t target = appended_;
  while (completed_ < target) completed_changed_.Wait(&mu_);
}

void GroupCommitter::Stop() {
  std::vector<std::thread> writers;
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
    work_ready_.SignalAll();
    writers.swap(writers_);
  }
  // The writers drain the queue before they exit.
  for (std::thread& writer : writers) writer.join();
  // A second, concurrent Stop() found no writers to join: wait for the first one's drain.
  Flush();
}

void GroupCommitter::WriterLoop() {
  for (;;) {
    CommitBatch batch;
    std::vector<Callback> callbacks;
    int64_t batch_number = 0;
    {
      absl::MutexLock lock(&mu_);
      while (queue_.empty() && !stopping_) work_ready_.Wait(&mu_);
      if (queue_.empty()) return;  // stopping, and nothing left
      // Let more events gather for this commit, unless a full batch waits or we are stopping.
      const absl::Time due = last_taken_ + options_.min_interval;
      while (!stopping_ && queue_.size() < max_batch_ && absl::Now() < due) {
        work_ready_.WaitWithDeadline(&mu_, due);
      }
      if (queue_.empty()) continue;  // another writer took them meanwhile
      last_taken_ = absl::Now();
      const size_t n = std::min(queue_.size(), max_batch_);
      batch.events.reserve(n);
      callbacks.reserve(n);
      for (size_t i = 0; i < n; ++i) {
        Pending& pending = queue_.front();
        batch.events.push_back(std::move(pending.event));
        if (pending.end.has_value()) batch.ends.push_back(*std::move(pending.end));
        callbacks.push_back(std::move(pending.done));
        queue_.pop_front();
      }
      batch_number = batches_taken_++;
      // More work waiting: let another writer start on it while this one commits.
      if (!queue_.empty()) work_ready_.Signal();
    }

    std::vector<absl::Status> statuses(callbacks.size());
    CommitIsolating(std::move(batch), 0, statuses);

    {
      absl::MutexLock lock(&mu_);
      while (batches_completed_ != batch_number) completed_changed_.Wait(&mu_);
    }
    // In append order, outside the lock (a callback may Append the match's next event).
    for (size_t i = 0; i < callbacks.size(); ++i) {
      if (callbacks[i]) callbacks[i](statuses[i]);
    }
    {
      absl::MutexLock lock(&mu_);
      ++batches_completed_;
      completed_ += static_cast<int64_t>(callbacks.size());
      completed_changed_.SignalAll();
    }
  }
}

void GroupCommitter::CommitIsolating(CommitBatch batch, size_t offset,
                                     std::vector<absl::Status>& statuses) {
  const size_t n = batch.events.size();
  const absl::Status status = CommitWithRetry(batch);
  if (n > 1 && IsPermanentDataError(status)) {
    auto [first, second] = Split(std::move(batch), n / 2);
    CommitIsolating(std::move(first), offset, statuses);
    CommitIsolating(std::move(second), offset + n / 2, statuses);
    return;
  }
  for (size_t i = 0; i < n; ++i) statuses[offset + i] = status;
}

absl::Status GroupCommitter::CommitWithRetry(const CommitBatch& batch) {
  const absl::Time give_up = absl::Now() + options_.retry_for;
  absl::Duration backoff = kFirstBackoff;
  bool maybe_committed = false;
  for (;;) {
    const absl::Time start = absl::Now();
    absl::Status status = store_.Commit(batch);
    const absl::Duration latency = absl::Now() - start;
    // An UNKNOWN attempt may have committed after all. The batch is one transaction and each
    // match has one event in flight, so if a retry then finds its events stored, they are
    // this batch's: the earlier attempt did commit, with everything else in the batch.
    if (maybe_committed && status.code() == absl::StatusCode::kAlreadyExists) {
      status = absl::OkStatus();
    }
    if (options_.on_commit) {
      options_.on_commit(CommitStats{static_cast<int>(batch.events.size()), latency, status.ok()});
    }
    if (status.ok() || !IsTransient(status)) return status;
    if (status.code() == absl::StatusCode::kUnknown) maybe_committed = true;
    if (absl::Now() + backoff > give_up) return status;
    absl::SleepFor(backoff);
    backoff = std::min(backoff * 2, kMaxBackoff);
  }
}

}  // namespace boneyard::execution
