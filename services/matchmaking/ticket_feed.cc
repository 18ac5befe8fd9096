#include "services/matchmaking/ticket_feed.h"

#include <utility>
#include <vector>

#include "spdlog/spdlog.h"

namespace boneyard::matchmaking {

TicketFeed::Watch::Watch(TicketFeed& feed, std::string ticket_id)
    : feed_(feed), ticket_id_(std::move(ticket_id)) {
  absl::MutexLock lock(&feed_.mu_);
  Watched& watched = feed_.watched_[ticket_id_];
  ++watched.watchers;
  // A watcher that joins one already watching still gets the next read as a change.
  seen_version_ = watched.seen.empty() ? watched.version : watched.version - 1;
}

TicketFeed::Watch::~Watch() {
  absl::MutexLock lock(&feed_.mu_);
  auto it = feed_.watched_.find(ticket_id_);
  if (it != feed_.watched_.end() && --it->second.watchers == 0) feed_.watched_.erase(it);
}

bool TicketFeed::Watch::WaitForChange(absl::Time deadline) {
  absl::MutexLock lock(&feed_.mu_);
  while (true) {
    const uint64_t version = feed_.watched_.at(ticket_id_).version;
    if (version != seen_version_) {
      seen_version_ = version;
      return true;
    }
    if (feed_.stopping_) return false;
    if (feed_.changed_.WaitWithDeadline(&feed_.mu_, deadline)) return false;  // timed out
  }
}

TicketFeed::TicketFeed(PgMatchmakingStore& store, Options options)
    : store_(store), options_(options) {
  thread_ = std::thread([this] { Loop(); });
}

TicketFeed::~TicketFeed() { Stop(); }

void TicketFeed::Stop() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
    changed_.SignalAll();
  }
  if (thread_.joinable()) thread_.join();
}

std::optional<int> TicketFeed::Searching(const std::string& queue_id) const {
  absl::MutexLock lock(&mu_);
  if (!read_once_) return std::nullopt;
  auto it = searching_.find(queue_id);
  return it != searching_.end() ? it->second : 0;
}

std::optional<QueueRow> TicketFeed::Queue(const std::string& queue_id) const {
  absl::MutexLock lock(&mu_);
  auto it = queues_.find(queue_id);
  if (it == queues_.end()) return std::nullopt;
  return it->second;
}

int64_t TicketFeed::reads() const {
  absl::MutexLock lock(&mu_);
  return reads_;
}

bool TicketFeed::ReadOnce() {
  std::vector<std::string> ids;
  {
    absl::MutexLock lock(&mu_);
    for (const auto& [id, watched] : watched_) ids.push_back(id);
  }
  absl::StatusOr<std::map<std::string, std::string>> versions = store_.TicketVersions(ids);
  absl::StatusOr<std::map<std::string, int>> searching = store_.SearchingCounts();
  absl::StatusOr<std::vector<QueueRow>> queues = store_.ListQueues("", "", 1 << 30);
  if (!versions.ok() || !searching.ok() || !queues.ok()) {
    const absl::Status failed =
        !versions.ok() ? versions.status() : !searching.ok() ? searching.status() : queues.status();
    spdlog::warn("ticket feed: cannot read the tickets ({}); watchers wait", failed.ToString());
    return false;
  }
  absl::MutexLock lock(&mu_);
  bool any = false;
  for (auto& [id, watched] : watched_) {
    auto it = versions->find(id);
    if (it != versions->end() && it->second != watched.seen) {
      watched.seen = it->second;
      ++watched.version;
      any = true;
    }
  }
  searching_ = *std::move(searching);
  queues_.clear();
  for (QueueRow& queue : *queues) queues_[queue.queue_id] = std::move(queue);
  read_once_ = true;
  ++reads_;
  if (any) changed_.SignalAll();
  return true;
}

void TicketFeed::Loop() {
  while (true) {
    {
      absl::MutexLock lock(&mu_);
      // Nothing watched: nothing to read until somebody watches.
      auto due = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return stopping_ || !watched_.empty();
      };
      mu_.Await(absl::Condition(&due));
      if (stopping_) return;
    }
    const absl::Time started = absl::Now();
    ReadOnce();
    absl::MutexLock lock(&mu_);
    auto stopping = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return stopping_; };
    mu_.AwaitWithDeadline(absl::Condition(&stopping), started + options_.interval);
    if (stopping_) return;
  }
}

}  // namespace boneyard::matchmaking
