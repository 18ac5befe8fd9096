// Where a new match is played (docs/scaling.md): on the replica with the fewest live matches.
// Every replica writes its count at each renewal of its lease and reads everyone's
// (MatchStore::ShareLoad); a replica asked to create a match keeps it unless another has fewer
// by more than the slack, and counts each match it sends elsewhere, so a burst between two
// renewals spreads instead of landing on one replica.
//
//   Placement placement;
//   placement.Update(loads);                              // the lease's loop, every renewal
//   std::optional<std::string> there = placement.Choose(host.live_matches());
//   // nullopt: create it here; else forward the CreateMatch to `there`
//
// The slack (kMinSlack, or a twentieth of this replica's load when larger) keeps replicas that
// are about even from sending matches back and forth. No gRPC, no SQL: the service forwards.
#ifndef BONEYARD_SERVICES_EXECUTION_PLACEMENT_H_
#define BONEYARD_SERVICES_EXECUTION_PLACEMENT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "services/execution/match_store.h"

namespace boneyard::execution {

class Placement {
 public:
  static constexpr int64_t kMinSlack = 2;

  // `own_epoch`: this replica, left out of the others.
  explicit Placement(int64_t own_epoch) : own_epoch_(own_epoch) {}

  // The live replicas as the store last reported them.
  void Update(std::vector<ReplicaLoad> replicas);
  // Where to create the next match, with `live_here` matches here: nullopt for here, else the
  // address of the least loaded other replica (counted one more from now on).
  std::optional<std::string> Choose(int64_t live_here);

 private:
  const int64_t own_epoch_;
  absl::Mutex mu_;
  std::vector<ReplicaLoad> others_ ABSL_GUARDED_BY(mu_);
};

}  // namespace boneyard::execution

#endif  // BONEYARD_SERVICES_EXECUTION_PLACEMENT_H_
