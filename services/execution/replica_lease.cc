#include "services/execution/replica_lease.h"

#include <utility>

#include "spdlog/spdlog.h"

namespace boneyard::execution {

ReplicaLease::ReplicaLease(MatchStore& store, Options options, Adopt adopt, OnFenced on_fenced)
    : store_(store),
      options_(options),
      adopt_(std::move(adopt)),
      on_fenced_(std::move(on_fenced)),
      renewed_since_(absl::Now()),
      renewal_(options.lease / 3, [this](absl::Time now) { Renew(now); }),
      adoption_(options.adopt_interval, [this](absl::Time now) { LookForMatches(now); }) {}

ReplicaLease::~ReplicaLease() { Stop(); }

void ReplicaLease::Start() {
  {
    absl::MutexLock lock(&mu_);
    renewed_since_ = absl::Now();
  }
  renewal_.Start();
  adoption_.Start();
}

void ReplicaLease::Stop() {
  adoption_.Stop();
  renewal_.Stop();
}

bool ReplicaLease::Fenced(const absl::Status& s) {
  if (!IsFenced(s)) return false;
  {
    absl::MutexLock lock(&mu_);
    if (fenced_) return true;
    fenced_ = true;
  }
  on_fenced_(s);
  return true;
}

void ReplicaLease::Renew(absl::Time now) {
  {
    absl::MutexLock lock(&mu_);
    if (fenced_) return;
  }
  const absl::Status s = store_.RenewLease(options_.lease);
  if (Fenced(s)) return;
  if (!s.ok()) spdlog::warn("replica: renewing the lease failed: {}", s.ToString());
  {
    absl::MutexLock lock(&mu_);
    if (s.ok() && !renewing_) renewed_since_ = now;
    renewing_ = s.ok();
  }
  if (s.ok() && live_ != nullptr) {
    absl::StatusOr<std::vector<ReplicaLoad>> loads = store_.ShareLoad(live_());
    if (loads.ok()) {
      seen_(*std::move(loads));
    } else if (!Fenced(loads.status())) {
      spdlog::warn("replica: sharing the load failed: {}", loads.status().ToString());
    }
  }
}

void ReplicaLease::ShareLoad(std::function<int64_t()> live,
                             std::function<void(std::vector<ReplicaLoad>)> seen) {
  live_ = std::move(live);
  seen_ = std::move(seen);
}

void ReplicaLease::LookForMatches(absl::Time now) {
  bool may_fence = false;
  {
    absl::MutexLock lock(&mu_);
    if (fenced_) return;
    may_fence = renewing_ && now - renewed_since_ >= options_.lease;
  }
  // Matches a draining replica handed over are this one's already: they are loaded at once.
  // The lease of renewals guards only fencing others.
  absl::StatusOr<std::vector<ActiveMatch>> matches =
      may_fence ? store_.AdoptMatches(options_.adopt_limit)
                : store_.TakeHandedOver(options_.adopt_limit);
  if (!matches.ok()) {
    if (!Fenced(matches.status())) {
      spdlog::warn("replica: looking for matches to adopt failed: {}", matches.status().ToString());
    }
    return;
  }
  if (matches->empty()) return;
  const size_t count = matches->size();
  if (absl::Status s = adopt_(*std::move(matches)); !s.ok()) {
    spdlog::error("replica: adopted matches that do not replay: {}", s.ToString());
  }
  spdlog::info("replica: adopted {} matches", count);
}

absl::StatusOr<int> ReplicaLease::AdoptAll() {
  int total = 0;
  while (true) {
    absl::StatusOr<std::vector<ActiveMatch>> matches = store_.AdoptMatches(options_.adopt_limit);
    if (!matches.ok()) return matches.status();
    if (matches->empty()) return total;
    total += static_cast<int>(matches->size());
    if (absl::Status s = adopt_(*std::move(matches)); !s.ok()) return s;
  }
}

}  // namespace boneyard::execution
