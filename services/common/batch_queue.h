// A single-writer batching queue: callers on many threads each submit one item and block until its
// outcome is known (or are called back with it); one writer thread takes everything queued (up to
// max_batch) and hands it to `commit` at once. For writes whose cost is per transaction rather than
// per row (a commit, an fsync, the round trips of a few set-based statements), so that N concurrent
// callers pay for one transaction instead of N. The single writer also orders the batches: a batch
// commits before the next one is taken.
//
//   BatchQueue<Request, absl::StatusOr<Row>> queue(
//       [&](std::vector<Request>& batch) { return store.InsertMany(batch); },
//       absl::UnavailableError("stopping"), {.max_batch = 512});
//   absl::StatusOr<Row> row = queue.Submit(std::move(request));   // blocks
//   queue.Submit(std::move(request), [](absl::StatusOr<Row> row) { ... });  // on the writer
//
// `commit` returns one outcome per item, in the batch's order, and handles its own errors
// (retries, splitting a failed batch): the queue only carries items and outcomes. Stop() (or
// the destructor) commits what is queued; after it, Submit answers `stopped` at once.
#ifndef BONEYARD_SERVICES_COMMON_BATCH_QUEUE_H_
#define BONEYARD_SERVICES_COMMON_BATCH_QUEUE_H_

#include <deque>
#include <functional>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"

namespace boneyard {

template <typename Item, typename Outcome>
class BatchQueue {
 public:
  using Commit = std::function<std::vector<Outcome>(std::vector<Item>& batch)>;
  using Done = std::function<void(Outcome)>;
  struct Options {
    int max_batch = 512;
  };

  // Starts the writer. `stopped` is what Submit answers once the queue is stopping.
  BatchQueue(Commit commit, Outcome stopped, Options options)
      : commit_(std::move(commit)), stopped_(std::move(stopped)), options_(options) {
    writer_ = std::thread([this] { WriterLoop(); });
  }
  ~BatchQueue() { Stop(); }

  BatchQueue(const BatchQueue&) = delete;
  BatchQueue& operator=(const BatchQueue&) = delete;

  // Queues `item` and waits for its batch's outcome.
  Outcome Submit(Item item) {
    Outcome outcome = stopped_;
    absl::Notification done;
    Submit(std::move(item), [&](Outcome o) {
      outcome = std::move(o);
      done.Notify();
    });
    done.WaitForNotification();
    return outcome;
  }

  // Queues `item`; `done` gets its outcome on the writer's thread once its batch committed (at
  // once, on this thread, with `stopped` when the queue is stopping). For callers that must not
  // block, such as a completion queue's thread.
  void Submit(Item item, Done done) {
    {
      absl::MutexLock lock(&mu_);
      if (!stopping_) {
        queue_.push_back(Entry{.item = std::move(item), .done = std::move(done)});
        return;
      }
    }
    done(stopped_);
  }

  // Lets the writer finish everything queued, then joins it. Idempotent.
  void Stop() {
    {
      absl::MutexLock lock(&mu_);
      stopping_ = true;
    }
    if (writer_.joinable()) writer_.join();
  }

 private:
  struct Entry {
    Item item;
    Done done;
  };

  void WriterLoop() {
    while (true) {
      std::vector<Entry> taken;
      {
        absl::MutexLock lock(&mu_);
        auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
          return stopping_ || !queue_.empty();
        };
        mu_.Await(absl::Condition(&ready));
        if (queue_.empty()) return;  // stopping, and nothing left
        while (!queue_.empty() && static_cast<int>(taken.size()) < options_.max_batch) {
          taken.push_back(std::move(queue_.front()));
          queue_.pop_front();
        }
      }
      std::vector<Item> batch;
      batch.reserve(taken.size());
      for (Entry& entry : taken) batch.push_back(std::move(entry.item));
      std::vector<Outcome> outcomes = commit_(batch);
      for (size_t i = 0; i < taken.size(); ++i) {
        // A commit that answers short is a bug; its callers are not left waiting for ever.
        taken[i].done(i < outcomes.size() ? std::move(outcomes[i]) : stopped_);
      }
    }
  }

  const Commit commit_;
  const Outcome stopped_;
  const Options options_;
  absl::Mutex mu_;
  std::deque<Entry> queue_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread writer_;
};

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_BATCH_QUEUE_H_
