#include "services/matchmaking/ladder_feed.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "services/common/threads.h"
#include "spdlog/spdlog.h"

namespace boneyard::matchmaking {
namespace {

// However soon changes follow each other, reads are at least this far apart.
constexpr absl::Duration kMinGap = absl::Milliseconds(20);
// How often a wait for a change looks whether the feed is stopping.
constexpr absl::Duration kStopCheck = absl::Milliseconds(50);

}  // namespace

LadderFeed::LadderFeed(LadderLogic& logic, Options options) : logic_(logic), options_(options) {
  thread_ = std::thread([this] {
    SetThreadName("ladder-feed");
    Loop();
  });
}

LadderFeed::~LadderFeed() { Stop(); }

void LadderFeed::Stop() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  if (thread_.joinable()) thread_.join();
}

void LadderFeed::Subscribe(const std::string& player, std::shared_ptr<Subscriber> subscriber) {
  absl::MutexLock lock(&mu_);
  auto [it, added] = watched_.try_emplace(player);
  if (added) it->second.after = floor_;
  const Subscriber* key = subscriber.get();
  it->second.subscribers[key] = std::move(subscriber);
}

void LadderFeed::Unsubscribe(const std::string& player, const Subscriber* subscriber) {
  absl::MutexLock lock(&mu_);
  auto it = watched_.find(player);
  if (it == watched_.end()) return;
  it->second.subscribers.erase(subscriber);
  if (it->second.subscribers.empty()) watched_.erase(it);
}

int64_t LadderFeed::reads() const {
  absl::MutexLock lock(&mu_);
  return reads_;
}

int LadderFeed::watched() const {
  absl::MutexLock lock(&mu_);
  return static_cast<int>(watched_.size());
}

bool LadderFeed::ReadOnce() {
  std::vector<std::string> players;
  std::vector<int64_t> after;
  {
    absl::MutexLock lock(&mu_);
    for (const auto& [player, watched] : watched_) {
      players.push_back(player);
      after.push_back(watched.after);
    }
    ++reads_;
  }
  absl::StatusOr<LadderLogic::WatchedEvents> read =
      logic_.ReadWatched(players, after, std::max(options_.batch, 4));
  if (!read.ok()) {
    spdlog::warn("ladder feed: cannot read the challenges ({}); watchers wait",
                 read.status().ToString());
    return false;
  }
  // Cut short: the last number may have been cut between the two players of one challenge, so
  // it is read again next time and nothing of it is handed over now.
  int64_t covered = read->latest;
  if (read->truncated) {
    covered = read->events.back().sequence - 1;
    while (!read->events.empty() && read->events.back().sequence > covered) {
      read->events.pop_back();
    }
  }
  std::map<std::string, int64_t> last;  // each player's highest number read
  for (const LadderLogic::WatchedEvent& e : read->events) {
    last[e.player] = std::max(last[e.player], e.sequence);
  }
  std::vector<std::pair<std::shared_ptr<Subscriber>, const LadderLogic::WatchedEvent*>> deliveries;
  std::map<const LadderLogic::WatchedEvent*, std::shared_ptr<const v1::LadderEvent>> shared;
  {
    absl::MutexLock lock(&mu_);
    floor_ = std::max(floor_, read->latest);
    for (size_t i = 0; i < players.size(); ++i) {
      auto it = watched_.find(players[i]);
      // Gone meanwhile, or gone and watched again (from a later floor): left as it is.
      if (it == watched_.end() || it->second.after != after[i]) continue;
      // Everything of the player up to `covered` was in the read (the clock was read first,
      // and numbers commit in order); past it, what the read saw.
      int64_t upto = std::max(after[i], covered);
      if (auto l = last.find(players[i]); l != last.end()) upto = std::max(upto, l->second);
      it->second.after = upto;
    }
    for (const LadderLogic::WatchedEvent& e : read->events) {
      auto it = watched_.find(e.player);
      if (it == watched_.end()) continue;
      for (const auto& [key, subscriber] : it->second.subscribers) {
        deliveries.emplace_back(subscriber, &e);
      }
    }
  }
  for (const auto& [subscriber, e] : deliveries) {
    std::shared_ptr<const v1::LadderEvent>& event = shared[e];
    if (event == nullptr) event = std::make_shared<const v1::LadderEvent>(e->event);
    subscriber->OnEvent(event, e->sequence);
  }
  return read->truncated;
}

void LadderFeed::Loop() {
  int64_t seen_changes = 0;
  absl::Time last_read = absl::InfinitePast();
  bool again = false;  // the last read was cut short
  while (true) {
    {
      absl::MutexLock lock(&mu_);
      auto due = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return stopping_ || !watched_.empty();
      };
      mu_.Await(absl::Condition(&due));
      if (stopping_) return;
    }
    if (!again) {
      // Until the interval is up, or a change here, whichever is first.
      const absl::Time deadline = last_read + options_.interval;
      while (absl::Now() < deadline) {
        const int64_t now_changes =
            logic_.AwaitChange(seen_changes, std::min(deadline, absl::Now() + kStopCheck));
        {
          absl::MutexLock lock(&mu_);
          if (stopping_) return;
        }
        if (now_changes != seen_changes) {
          seen_changes = now_changes;
          break;
        }
      }
    }
    {
      absl::MutexLock lock(&mu_);
      auto stopping = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return stopping_; };
      mu_.AwaitWithDeadline(absl::Condition(&stopping), last_read + kMinGap);
      if (stopping_) return;
    }
    last_read = absl::Now();
    again = ReadOnce();
  }
}

}  // namespace boneyard::matchmaking
