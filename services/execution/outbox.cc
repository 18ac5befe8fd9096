#include "services/execution/outbox.h"

#include <algorithm>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "services/common/internal_error.h"
#include "services/common/threads.h"
#include "spdlog/spdlog.h"

namespace boneyard::execution {

ResultSink::~ResultSink() = default;

OutboxDispatcher::OutboxDispatcher(MatchStore& store, ResultSink& sink, Options options)
    : store_(store), sink_(sink), options_(std::move(options)) {}

OutboxDispatcher::~OutboxDispatcher() { Stop(); }

void OutboxDispatcher::Start() {
  absl::MutexLock lock(&mu_);
  if (thread_.has_value() || stopping_) return;
  thread_.emplace([this] {
    SetThreadName("outbox");
    Run();
  });
}

void OutboxDispatcher::Wake() {
  absl::MutexLock lock(&mu_);
  woken_ = true;
}

void OutboxDispatcher::Stop() {
  std::optional<std::thread> thread;
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
    thread.swap(thread_);
  }
  if (thread.has_value()) thread->join();
}

bool OutboxDispatcher::Stopping() {
  absl::MutexLock lock(&mu_);
  return stopping_;
}

absl::Duration OutboxDispatcher::Backoff(int failures) const {
  absl::Duration delay = options_.initial_backoff;
  for (int i = 0; i < failures && delay < options_.max_backoff; ++i) delay *= 2;
  return std::min(delay, options_.max_backoff);
}

absl::StatusOr<int> OutboxDispatcher::DeliverDue() {
  const int batch = std::max(1, options_.batch);
  int delivered = 0;
  for (;;) {
    const absl::Time now = absl::Now();
    absl::StatusOr<std::vector<OutboxItem>> items =
        options_.claim_for > absl::ZeroDuration()
            ? store_.ClaimOutbox(options_.receiver, batch, now, options_.claim_for)
            : store_.PendingOutbox(options_.receiver, batch, now);
    if (!items.ok()) return items.status();
    // Items claimed but not tried when the pass stops early are due again at once.
    auto release_from = [&](size_t first) {
      std::vector<int64_t> ids;
      for (size_t i = first; i < items->size(); ++i) ids.push_back((*items)[i].id);
      if (absl::Status s = store_.ReleaseOutbox(ids, absl::Now()); !s.ok()) {
        spdlog::warn("outbox: releasing {} claimed items failed (due again after the claim): {}",
                     ids.size(), s.ToString());
      }
    };
    for (size_t index = 0; index < items->size(); ++index) {
      const OutboxItem& item = (*items)[index];
      if (Stopping()) {
        release_from(index);
        return delivered;
      }
      const absl::Status status = sink_.Deliver(item);
      if (status.ok()) {
        // Should this fail, the item is delivered again later; the sink is idempotent.
        if (absl::Status s = store_.MarkDelivered(item.id, absl::Now()); !s.ok()) return s;
        ++delivered;
        continue;
      }
      if (IsPermanentDataError(status)) {  // the receiver refuses the result itself
        spdlog::error("outbox: {} refuses the result of matches/{} for good; parked (attempt "
                      "{}); an operator can deliver it again once fixed: {}",
                      options_.receiver, item.match_id, item.attempts + 1, status.ToString());
        if (absl::Status s = store_.MarkParked(item.id, status.ToString(), absl::Now()); !s.ok()) {
          return s;
        }
        if (options_.on_parked) options_.on_parked();
        continue;
      }
      const absl::Duration backoff = Backoff(item.attempts);
      spdlog::warn("outbox: delivering the result of matches/{} to {} failed (attempt {}), "
                   "next try in {}: {}",
                   item.match_id, options_.receiver, item.attempts + 1,
                   absl::FormatDuration(backoff),
                   status.ToString());
      if (absl::Status s = store_.MarkFailed(item.id, status.ToString(), absl::Now() + backoff);
          !s.ok()) {
        return s;
      }
      release_from(index + 1);
      return delivered;
    }
    if (static_cast<int>(items->size()) < batch) return delivered;
  }
}

void OutboxDispatcher::Run() {
  for (;;) {
    absl::StatusOr<int> delivered = DeliverDue();
    if (!delivered.ok()) {
      spdlog::warn("outbox: cannot read or update the outbox: {}", delivered.status().ToString());
    }
    if (options_.on_backlog) {
      absl::StatusOr<int64_t> backlog = store_.CountPendingOutbox(options_.receiver);
      if (backlog.ok()) options_.on_backlog(*backlog);
    }
    absl::MutexLock lock(&mu_);
    mu_.AwaitWithTimeout(absl::Condition(this, &OutboxDispatcher::WokenOrStopping),
                         options_.poll_interval);
    if (stopping_) return;
    woken_ = false;
  }
}

}  // namespace boneyard::execution
