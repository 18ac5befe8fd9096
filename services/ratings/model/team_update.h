// The model kinds' shared shape, internal to the library. Rate() sums each team (after tau),
// sorts the teams by rank and hands them to one model kind, which returns each team's Omega
// (the mean's step) and Delta (the variance's shrink factor) in Weng and Lin's notation; Rate()
// then shares them out to the members in proportion to their variances.
#ifndef BONEYARD_SERVICES_RATINGS_MODEL_TEAM_UPDATE_H_
#define BONEYARD_SERVICES_RATINGS_MODEL_TEAM_UPDATE_H_

#include <span>

#include "services/ratings/model/weng_lin.h"

namespace boneyard::ratings::internal {

// One team, in rank order (plain data: scratch arrays of these are left uninitialised). `rank`
// is only compared (equal = tied, lower = better).
struct TeamTotals {
  double mu;        // sum of the members' mu
  double sigma_sq;  // sum of the members' sigma^2 (tau already added)
  double rank;
};

struct TeamUpdate {
  double omega;
  double delta;
};

// `teams` is sorted by rank (ties in input order); `out` has the same size.
void PlackettLuce(const RatingModelConfig& config, std::span<const TeamTotals> teams,
                  std::span<TeamUpdate> out);

// Thurstone-Mosteller and Bradley-Terry, each with full pairing (every other team) or partial
// pairing (the neighbours in rank order).
void Pairwise(const RatingModelConfig& config, std::span<const TeamTotals> teams,
              std::span<TeamUpdate> out);

}  // namespace boneyard::ratings::internal

#endif  // BONEYARD_SERVICES_RATINGS_MODEL_TEAM_UPDATE_H_
