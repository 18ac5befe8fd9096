// Plackett-Luce (Weng and Lin, algorithm 4), as openskill 5.x computes it: one shared scale
// c over all teams, and each team's "probability of being chosen first" among the teams placed
// no better than each other team. Tied teams share those choices (the 1 / a[q] weights).
#include <algorithm>
#include <cmath>

#include "services/ratings/model/small_buffer.h"
#include "services/ratings/model/team_update.h"

namespace boneyard::ratings::internal {

void PlackettLuce(const RatingModelConfig& config, std::span<const TeamTotals> teams,
                  std::span<TeamUpdate> out) {
  const size_t n = teams.size();
  const double beta_sq = config.beta * config.beta;
  double c_sq = 0;
  double max_mu = teams[0].mu;
  for (const TeamTotals& team : teams) {
    c_sq += team.sigma_sq + beta_sq;
    max_mu = std::max(max_mu, team.mu);
  }
  const double c = std::sqrt(c_sq);

  // exp(mu / c) appears only in ratios, so it is taken relative to the strongest team: the
  // same quotients as openskill's to rounding, without overflow for large mu.
  SmallBuffer<double> strength(n);
  for (size_t i = 0; i < n; ++i) strength[i] = std::exp((teams[i].mu - max_mu) / c);

  // The teams tied with q are [group_begin[q], group_end[q]) since `teams` is sorted by rank.
  SmallBuffer<size_t> group_begin(n);
  SmallBuffer<size_t> group_end(n);
  for (size_t q = 0; q < n; ++q) {
    group_begin[q] = q > 0 && teams[q - 1].rank == teams[q].rank ? group_begin[q - 1] : q;
  }
  for (size_t q = n; q-- > 0;) {
    group_end[q] = q + 1 < n && teams[q + 1].rank == teams[q].rank ? group_end[q + 1] : q + 1;
  }

  // inv_sum[q] = 1 / (the strengths of every team placed no better than q, q's ties included);
  // inv_ties[q] = 1 / (how many teams share q's place).
  SmallBuffer<double> suffix(n);  // suffix[i] = the strengths of teams i, i + 1, ...
  double running = 0;
  for (size_t i = n; i-- > 0;) suffix[i] = running += strength[i];
  SmallBuffer<double> inv_sum(n);
  SmallBuffer<double> inv_ties(n);
  for (size_t q = 0; q < n; ++q) {
    inv_sum[q] = 1.0 / suffix[group_begin[q]];
    inv_ties[q] = 1.0 / static_cast<double>(group_end[q] - group_begin[q]);
  }

  for (size_t i = 0; i < n; ++i) {
    double omega = 0;
    double delta = 0;
    for (size_t q = 0; q < group_end[i]; ++q) {  // every q placed no worse than i
      const double quotient = strength[i] * inv_sum[q];
      omega += ((i == q ? 1.0 : 0.0) - quotient) * inv_ties[q];
      delta += quotient * (1.0 - quotient) * inv_ties[q];
    }
    const double sigma_sq = teams[i].sigma_sq;
    const double gamma = std::sqrt(sigma_sq) / c;  // openskill's default gamma
    out[i].omega = omega * (sigma_sq / c);
    out[i].delta = delta * (sigma_sq / (c * c)) * gamma;
  }
}

}  // namespace boneyard::ratings::internal
