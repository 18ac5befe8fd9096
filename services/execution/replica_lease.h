// A replica's lease kept alive, and other replicas' matches taken over (docs/scaling.md): two
// PassLoops, one renewing this replica's lease every third of it, the other asking the store
// every `adopt_interval` for matches whose owner's lease has lapsed (MatchStore::AdoptMatches)
// and handing them to `adopt` (MatchHost::AdoptMatches). When the store says this replica is
// fenced (another found its lease lapsed and may have taken its matches), `on_fenced` is called
// once and nothing more is renewed or adopted: the process must stop serving, since its matches
// may be played elsewhere now. It looks for matches only after a whole lease of successful
// renewals (since it started, or since its last failed renewal), so a replica that was cut off
// with the others — the database away, every lease lapsed — does not fence them before they
// could renew. Matches a draining replica handed to this one (MatchStore::HandOver) are taken
// at every look from the start.
//
//   ReplicaLease lease(store, {.lease = absl::Seconds(5)},
//                      [&](std::vector<ActiveMatch> m) { return host.AdoptMatches(std::move(m)); },
//                      [](absl::Status s) { ... exit ... });
//   lease.AdoptAll();   // before serving
//   lease.Start();
#ifndef BONEYARD_SERVICES_EXECUTION_REPLICA_LEASE_H_
#define BONEYARD_SERVICES_EXECUTION_REPLICA_LEASE_H_

#include <functional>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/common/pass_loop.h"
#include "services/execution/match_store.h"

namespace boneyard::execution {

class ReplicaLease {
 public:
  struct Options {
    // How long the lease lasts unrenewed: how soon the others take over from a replica that
    // stopped (killed, paused, cut off). Renewed every third of it.
    absl::Duration lease = absl::Seconds(3);
    // How often to look for matches to adopt.
    absl::Duration adopt_interval = absl::Milliseconds(500);
    // The most matches one look takes (others are left for the next look, or another replica).
    int adopt_limit = 500;
  };
  using Adopt = std::function<absl::Status(std::vector<ActiveMatch>)>;
  using OnFenced = std::function<void(absl::Status)>;

  // `store` must be registered as a replica and outlive this.
  ReplicaLease(MatchStore& store, Options options, Adopt adopt, OnFenced on_fenced);
  ~ReplicaLease();  // Stop()

  ReplicaLease(const ReplicaLease&) = delete;
  ReplicaLease& operator=(const ReplicaLease&) = delete;

  // At every successful renewal from Start on: writes `live()` as this replica's load and hands
  // every live replica's to `seen` (MatchStore::ShareLoad). Before Start.
  void ShareLoad(std::function<int64_t()> live, std::function<void(std::vector<ReplicaLoad>)> seen);
  // Adopts until nothing is left to adopt now (at start, before serving), returning how many.
  absl::StatusOr<int> AdoptAll();
  // Starts renewing and looking.
  void Start();
  // Stops both (the lease is not given up: MatchStore::ReleaseLease does that). Idempotent.
  void Stop();

 private:
  void Renew(absl::Time now);
  void LookForMatches(absl::Time now);
  // True when `s` says this replica is fenced; calls on_fenced (once).
  bool Fenced(const absl::Status& s);

  MatchStore& store_;
  const Options options_;
  const Adopt adopt_;
  const OnFenced on_fenced_;
  std::function<int64_t()> live_;
  std::function<void(std::vector<ReplicaLoad>)> seen_;

  absl::Mutex mu_;
  bool fenced_ ABSL_GUARDED_BY(mu_) = false;
  // Whether the last renewal succeeded, and since when they all have.
  bool renewing_ ABSL_GUARDED_BY(mu_) = true;
  absl::Time renewed_since_ ABSL_GUARDED_BY(mu_);
  PassLoop renewal_;
  PassLoop adoption_;
};

}  // namespace boneyard::execution

#endif  // BONEYARD_SERVICES_EXECUTION_REPLICA_LEASE_H_
