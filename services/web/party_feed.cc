#include "services/web/party_feed.h"

#include <utility>
#include <vector>

#include "services/web/json_wire.h"

namespace boneyard::web {

PartyFeed::PartyFeed(Backends& backends, absl::Duration interval)
    : backends_(backends), interval_(interval), thread_([this] { Loop(); }) {}

PartyFeed::~PartyFeed() {
  std::map<int, Watcher> left;
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
    left.swap(watchers_);
  }
  thread_.join();
  for (auto& [id, watcher] : left) watcher.sink->Finish();
}

void PartyFeed::Watch(const std::string& token, const std::string& party,
                      std::shared_ptr<EventSink> sink) {
  Watcher watcher{.token = token, .party = party, .last = "", .sink = sink};
  if (!Refresh(watcher)) return;
  int id;
  {
    absl::MutexLock lock(&mu_);
    id = next_id_++;
    watchers_[id] = std::move(watcher);
  }
  sink->OnClose([this, id] {
    absl::MutexLock lock(&mu_);
    watchers_.erase(id);
  });
}

bool PartyFeed::Refresh(Watcher& watcher) {
  absl::StatusOr<v1::Party> party = backends_.GetParty(watcher.token, watcher.party);
  if (!party.ok()) {
    watcher.sink->Send("error", ErrorJson(party.status()));
    watcher.sink->Finish();
    return false;
  }
  std::string json = ProtoJson(*party);
  if (json != watcher.last) {
    watcher.sink->Send("party", json);
    watcher.last = std::move(json);
  }
  return true;
}

void PartyFeed::Loop() {
  for (;;) {
    std::vector<std::pair<int, Watcher>> round;
    {
      absl::MutexLock lock(&mu_);
      const absl::Time wake = absl::Now() + interval_;
      while (!stopping_ && absl::Now() < wake) {
        mu_.AwaitWithDeadline(absl::Condition(&stopping_), wake);
      }
      if (stopping_) return;
      round.assign(watchers_.begin(), watchers_.end());
    }
    for (auto& [id, watcher] : round) {
      const bool open = Refresh(watcher);
      absl::MutexLock lock(&mu_);
      auto it = watchers_.find(id);
      if (it == watchers_.end()) continue;  // the browser left meanwhile
      if (open) {
        it->second.last = watcher.last;
      } else {
        watchers_.erase(it);
      }
    }
  }
}

}  // namespace boneyard::web
