#include "services/matchmaking/tournament_feed.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "services/common/threads.h"
#include "spdlog/spdlog.h"

namespace boneyard::matchmaking {

TournamentFeed::TournamentFeed(TournamentLogic& logic, Options options)
    : logic_(logic), options_(options) {
  thread_ = std::thread([this] {
    SetThreadName("tournament-feed");
    Loop();
  });
}

TournamentFeed::~TournamentFeed() { Stop(); }

void TournamentFeed::Stop() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  if (thread_.joinable()) thread_.join();
}

void TournamentFeed::Subscribe(const std::string& id, const std::optional<std::string>& viewer,
                               std::shared_ptr<Subscriber> subscriber) {
  absl::MutexLock lock(&mu_);
  const Subscriber* key = subscriber.get();
  watched_[id].subscribers[key] = {viewer, std::move(subscriber)};
}

void TournamentFeed::Unsubscribe(const std::string& id, const Subscriber* subscriber) {
  absl::MutexLock lock(&mu_);
  auto it = watched_.find(id);
  if (it == watched_.end()) return;
  it->second.subscribers.erase(subscriber);
  // Nobody watches it: it is read no more.
  if (it->second.subscribers.empty()) watched_.erase(it);
}

int64_t TournamentFeed::reads() const {
  absl::MutexLock lock(&mu_);
  return reads_;
}

int TournamentFeed::watched() const {
  absl::MutexLock lock(&mu_);
  return static_cast<int>(watched_.size());
}

void TournamentFeed::ReadOnce() {
  std::vector<std::string> ids;
  {
    absl::MutexLock lock(&mu_);
    for (const auto& [id, watched] : watched_) ids.push_back(id);
    ++reads_;
  }
  absl::StatusOr<std::map<std::string, int64_t>> versions = logic_.WatchedVersions(ids);
  if (!versions.ok()) {
    spdlog::warn("tournament feed: cannot read the versions ({}); watchers wait",
                 versions.status().ToString());
    return;
  }
  for (const auto& [id, version] : *versions) {
    // The distinct viewers of a changed event, each built once.
    std::vector<std::optional<std::string>> viewers;
    {
      absl::MutexLock lock(&mu_);
      auto it = watched_.find(id);
      if (it == watched_.end() || it->second.seen == version) continue;
      for (const auto& [key, entry] : it->second.subscribers) {
        if (std::find(viewers.begin(), viewers.end(), entry.first) == viewers.end()) {
          viewers.push_back(entry.first);
        }
      }
      ++reads_;
    }
    // Built after the version was read: the update shows that version or a later one, so a
    // change between the two is only sent again (the next read sees a new version), not lost.
    absl::StatusOr<std::vector<v1::TournamentUpdate>> built = logic_.UpdatesOf(id, viewers);
    if (!built.ok()) {
      spdlog::warn("tournament feed: cannot read tournaments/{} ({}); tried again", id,
                   built.status().ToString());
      continue;
    }
    std::map<std::optional<std::string>, std::shared_ptr<const v1::TournamentUpdate>> updates;
    for (size_t i = 0; i < viewers.size(); ++i) {
      updates[viewers[i]] = std::make_shared<const v1::TournamentUpdate>(std::move((*built)[i]));
    }
    std::vector<std::pair<std::shared_ptr<Subscriber>, std::shared_ptr<const v1::TournamentUpdate>>>
        deliveries;
    {
      absl::MutexLock lock(&mu_);
      auto it = watched_.find(id);
      if (it == watched_.end()) continue;
      it->second.seen = version;
      for (const auto& [key, entry] : it->second.subscribers) {
        auto update = updates.find(entry.first);
        // A viewer who subscribed after the viewers were listed read their snapshot after
        // this version was read: they have seen it.
        if (update != updates.end()) deliveries.emplace_back(entry.second, update->second);
      }
    }
    // Outside the lock: a subscriber may unsubscribe (or subscribe another) as it is handed one.
    for (const auto& [subscriber, update] : deliveries) subscriber->OnUpdate(update, version);
  }
}

void TournamentFeed::Loop() {
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
