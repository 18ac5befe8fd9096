// A replica's lease kept alive, and other replicas' matches taken over (docs/scaling.md): one
// thread that renews this replica's lease every third of it and, every `adopt_interval`, asks
// the store for matches whose owner's lease has lapsed (MatchStore::AdoptMatches) and hands
// them to `adopt` (MatchHost::AdoptMatches). When the store says this replica is fenced (another
// found its lease lapsed and may have taken its matches), `on_fenced` is called once and the
// loop ends: the process must stop serving, since its matches may be played elsewhere now.
// It looks for matches only after a whole lease of successful renewals (since it started, or
// since the database was last out of reach), so a replica that was cut off with the others
// does not fence them before they could renew.
//
//   ReplicaLease lease(store, {.lease = absl::Seconds(5)},
//                      [&](std::vector<ActiveMatch> m) { return host.AdoptMatches(std::move(m)); },
//                      [](absl::Status s) { ... exit ... });
//   lease.Start();
#ifndef BONEYARD_SERVICES_EXECUTION_REPLICA_LEASE_H_
#define BONEYARD_SERVICES_EXECUTION_REPLICA_LEASE_H_

#include <functional>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/execution/match_store.h"

namespace boneyard::execution {

class ReplicaLease {
 public:
  struct Options {
    // How long the lease lasts unrenewed: how soon the others take over from a replica that
    // stopped (killed, paused, cut off). Renewed every third of it.
    absl::Duration lease = absl::Seconds(5);
    // How often to look for matches to adopt.
    absl::Duration adopt_interval = absl::Seconds(1);
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

  // Adopts until nothing is left to adopt now (at start, before serving), returning how many.
  absl::StatusOr<int> AdoptAll();
  // Starts the thread.
  void Start();
  // Ends the thread (the lease is not given up: MatchStore::ReleaseLease does that). Idempotent.
  void Stop();

 private:
  void Loop();
  // One look for matches to adopt; false once fenced.
  bool AdoptOnce();
  // True when `s` says this replica is fenced; calls on_fenced (once).
  bool Fenced(const absl::Status& s);

  MatchStore& store_;
  const Options options_;
  const Adopt adopt_;
  const OnFenced on_fenced_;

  absl::Mutex mu_;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  bool fenced_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace boneyard::execution

#endif  // BONEYARD_SERVICES_EXECUTION_REPLICA_LEASE_H_
