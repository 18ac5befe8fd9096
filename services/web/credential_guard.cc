#include "services/web/credential_guard.h"

#include <algorithm>
#include <utility>

#include "services/web/json_wire.h"

namespace boneyard::web {
namespace {

// Answers kept this long after their last use, so that the map holds what is in use.
constexpr absl::Duration kForgetAfter = absl::Minutes(10);

constexpr char kRefused[] =
    "signed out: this player's token was rotated or revoked; sign in with the new token";

}  // namespace

CredentialGuard::CredentialGuard(Checker checker, absl::Duration fresh)
    : checker_(std::move(checker)), fresh_(fresh), sweeper_([this] { Sweep(); }) {}

CredentialGuard::~CredentialGuard() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  sweeper_.join();
}

absl::Status CredentialGuard::Check(const std::string& credential) {
  {
    absl::MutexLock lock(&mu_);
    auto it = entries_.find(credential);
    if (it != entries_.end() && (it->second.refused || absl::Now() - it->second.checked < fresh_)) {
      return it->second.refused ? absl::UnauthenticatedError(kRefused) : absl::OkStatus();
    }
  }
  return Refresh(credential) ? absl::UnauthenticatedError(kRefused) : absl::OkStatus();
}

bool CredentialGuard::Refresh(const std::string& credential) {
  const absl::Status answer = checker_(credential);  // a gRPC call: never under the lock
  absl::MutexLock lock(&mu_);
  Entry& entry = entries_[credential];
  if (answer.ok()) {
    entry.checked = absl::Now();
  } else if (absl::IsUnauthenticated(answer)) {
    entry.checked = absl::Now();
    entry.refused = true;
  }
  // Otherwise the checker could not tell: the last answer stands, and a credential never
  // answered for counts as fine (an outage of matchmaking signs nobody out).
  return entry.refused;
}

void CredentialGuard::Track(const std::string& credential,
                            const std::shared_ptr<EventSink>& sink) {
  bool refused = false;
  {
    absl::MutexLock lock(&mu_);
    Entry& entry = entries_[credential];
    entry.sinks.push_back(sink);
    refused = entry.refused;
  }
  if (refused) {
    // Refused between the request's check and its stream's start.
    sink->Send("error", ErrorJson(absl::UnauthenticatedError(kRefused)));
    sink->Finish();
  }
}

int CredentialGuard::tracked() {
  absl::MutexLock lock(&mu_);
  return static_cast<int>(std::count_if(entries_.begin(), entries_.end(),
                                        [](const auto& e) { return !e.second.sinks.empty(); }));
}

void CredentialGuard::Sweep() {
  while (true) {
    std::vector<std::string> watched;
    {
      absl::MutexLock lock(&mu_);
      mu_.AwaitWithTimeout(absl::Condition(&stopping_), fresh_);
      if (stopping_) return;
      const absl::Time now = absl::Now();
      for (auto it = entries_.begin(); it != entries_.end();) {
        Entry& entry = it->second;
        entry.sinks.erase(std::remove_if(entry.sinks.begin(), entry.sinks.end(),
                                         [](const std::weak_ptr<EventSink>& s) {
                                           return s.expired();
                                         }),
                          entry.sinks.end());
        if (entry.sinks.empty() && now - entry.checked > kForgetAfter) {
          it = entries_.erase(it);
          continue;
        }
        if (!entry.sinks.empty() && !entry.refused) watched.push_back(it->first);
        ++it;
      }
    }
    for (const std::string& credential : watched) {
      if (!Refresh(credential)) continue;
      std::vector<std::shared_ptr<EventSink>> ending;
      {
        absl::MutexLock lock(&mu_);
        auto it = entries_.find(credential);
        if (it == entries_.end()) continue;
        for (const std::weak_ptr<EventSink>& weak : it->second.sinks) {
          if (std::shared_ptr<EventSink> sink = weak.lock()) ending.push_back(std::move(sink));
        }
        it->second.sinks.clear();
      }
      // Outside the lock: a sink's Finish runs its close callback, which may call back here.
      for (const std::shared_ptr<EventSink>& sink : ending) {
        sink->Send("error", ErrorJson(absl::UnauthenticatedError(kRefused)));
        sink->Finish();
      }
    }
  }
}

}  // namespace boneyard::web
