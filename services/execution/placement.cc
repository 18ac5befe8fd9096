#include "services/execution/placement.h"

#include <algorithm>
#include <utility>

namespace boneyard::execution {

void Placement::Update(std::vector<ReplicaLoad> replicas) {
  replicas.erase(std::remove_if(replicas.begin(), replicas.end(),
                                [this](const ReplicaLoad& r) {
                                  return r.epoch == own_epoch_ || r.address.empty();
                                }),
                 replicas.end());
  absl::MutexLock lock(&mu_);
  others_ = std::move(replicas);
}

std::optional<std::string> Placement::Choose(int64_t live_here) {
  absl::MutexLock lock(&mu_);
  if (others_.empty()) return std::nullopt;
  auto least = std::min_element(
      others_.begin(), others_.end(),
      [](const ReplicaLoad& a, const ReplicaLoad& b) { return a.live_matches < b.live_matches; });
  const int64_t slack = std::max(kMinSlack, live_here / 20);
  if (least->live_matches + slack >= live_here) return std::nullopt;
  ++least->live_matches;
  return least->address;
}

}  // namespace boneyard::execution
