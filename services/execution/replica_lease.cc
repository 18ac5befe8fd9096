#include "services/execution/replica_lease.h"

#include <algorithm>
#include <utility>

#include "spdlog/spdlog.h"

namespace boneyard::execution {

ReplicaLease::ReplicaLease(MatchStore& store, Options options, Adopt adopt, OnFenced on_fenced)
    : store_(store),
      options_(options),
      adopt_(std::move(adopt)),
      on_fenced_(std::move(on_fenced)) {}

ReplicaLease::~ReplicaLease() { Stop(); }

void ReplicaLease::Start() {
  thread_ = std::thread([this] { Loop(); });
}

void ReplicaLease::Stop() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  if (thread_.joinable()) thread_.join();
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

bool ReplicaLease::AdoptOnce() {
  absl::StatusOr<std::vector<ActiveMatch>> matches = store_.AdoptMatches(options_.adopt_limit);
  if (!matches.ok()) {
    if (Fenced(matches.status())) return false;
    spdlog::warn("replica: looking for matches to adopt failed: {}", matches.status().ToString());
    return true;
  }
  if (matches->empty()) return true;
  const size_t count = matches->size();
  if (absl::Status s = adopt_(*std::move(matches)); !s.ok()) {
    spdlog::error("replica: adopted matches that do not replay: {}", s.ToString());
  }
  spdlog::info("replica: adopted {} matches", count);
  return true;
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

void ReplicaLease::Loop() {
  const absl::Duration renew_every = options_.lease / 3;
  absl::Time next_renewal = absl::Now() + renew_every;
  absl::Time next_adoption = absl::Now() + options_.adopt_interval;
  // Since when every renewal has succeeded. After the database was out of reach every lease
  // has lapsed; the first replica back must not fence the others before they had a lease's
  // time to renew, so it adopts only after a whole lease of renewals of its own.
  absl::Time renewed_since = absl::Now();
  bool renewing = true;
  while (true) {
    {
      absl::MutexLock lock(&mu_);
      const absl::Time wake = std::min(next_renewal, next_adoption);
      auto stopping = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return stopping_; };
      if (mu_.AwaitWithDeadline(absl::Condition(&stopping), wake)) return;
    }
    const absl::Time now = absl::Now();
    if (now >= next_renewal) {
      const absl::Status s = store_.RenewLease(options_.lease);
      if (Fenced(s)) return;
      if (!s.ok()) spdlog::warn("replica: renewing the lease failed: {}", s.ToString());
      if (s.ok() && !renewing) renewed_since = now;
      renewing = s.ok();
      next_renewal = now + renew_every;
    }
    if (now >= next_adoption) {
      if (renewing && now - renewed_since >= options_.lease && !AdoptOnce()) return;
      next_adoption = absl::Now() + options_.adopt_interval;
    }
  }
}

}  // namespace boneyard::execution
