// The pairwise models (Weng and Lin, algorithms 1-3 and the partial-pairing Thurstone-
// Mosteller): each team is compared with other teams one pair at a time and the pairs' terms
// are summed. Full pairing compares a team with every other team; partial pairing only with
// its neighbours in rank order (the team just above, then the one just below), as openskill's
// ladderPairs does.
//
// openskill evaluates each pair twice, once from each side. Here each unordered pair is
// evaluated once and gives both sides' terms; the pairs are visited in an order that adds each
// team's terms in openskill's order (ascending partner), so the sums round the same way.
#include <algorithm>
#include <cmath>

#include "services/ratings/model/normal.h"
#include "services/ratings/model/small_buffer.h"
#include "services/ratings/model/team_update.h"

namespace boneyard::ratings::internal {
namespace {

// openskill's default epsilon: Thurstone-Mosteller's draw margin.
constexpr double kEpsilon = 0.1;

// One team as a side of a pair: its totals and sqrt(sigma_sq), which openskill's default
// gamma needs for every pair.
struct Side {
  const TeamTotals& team;
  double sigma;
};

struct PairTerms {
  TeamUpdate i;
  TeamUpdate q;
};

// i placed better than q: `order` = +1; worse: -1; tied: 0. `c` is the pair's scale.
PairTerms ThurstoneMosteller(Side i, Side q, double c, int order) {
  const double delta_mu = (i.team.mu - q.team.mu) / c;  // q's is exactly its negation
  const double eta_i = i.team.sigma_sq / c;
  const double eta_q = q.team.sigma_sq / c;
  const double w_scale_i = i.sigma / c * eta_i / c;  // openskill: gamma * eta / c
  const double w_scale_q = q.sigma / c * eta_q / c;
  const double t = kEpsilon / c;
  if (order == 0) {
    // vt is odd in x (exactly, in floating point) but for x = 0, where both sides get the
    // same value; wt is even.
    const Correction draw = DrawCorrection(delta_mu, t);
    const double vt_q = delta_mu == 0 ? draw.v : -draw.v;
    return {{eta_i * draw.v, w_scale_i * draw.w}, {eta_q * vt_q, w_scale_q * draw.w}};
  }
  // Both sides evaluate v and w at the same point: sign * delta_mu, from their own view.
  const double sign = order;
  const Correction win = WinCorrection(sign * delta_mu, t);
  return {{sign * eta_i * win.v, w_scale_i * win.w}, {-sign * eta_q * win.v, w_scale_q * win.w}};
}

PairTerms BradleyTerry(Side i, Side q, double c, int order) {
  // Each side's own logistic, as openskill computes it, rather than 1 - p: the same rounding.
  const double p_iq = 1.0 / (1.0 + std::exp((q.team.mu - i.team.mu) / c));  // P(i beats q)
  const double p_qi = 1.0 / (1.0 + std::exp((i.team.mu - q.team.mu) / c));
  const double eta_i = i.team.sigma_sq / c;
  const double eta_q = q.team.sigma_sq / c;
  const double score_i = order == 0 ? 0.5 : order > 0 ? 1.0 : 0.0;
  return {{eta_i * (score_i - p_iq), i.sigma / c * eta_i / c * p_iq * (1.0 - p_iq)},
          {eta_q * ((1.0 - score_i) - p_qi), q.sigma / c * eta_q / c * p_qi * (1.0 - p_qi)}};
}

enum class Pairing { kFull, kPartial };

// `c_scale` multiplies the pair's scale: 2 for partial Thurstone-Mosteller, as openskill.
template <PairTerms (*Term)(Side, Side, double, int), Pairing pairing>
void Rate(const RatingModelConfig& config, double c_scale, std::span<const TeamTotals> teams,
          std::span<TeamUpdate> out) {
  const double two_beta_sq = 2.0 * (config.beta * config.beta);
  const size_t n = teams.size();
  SmallBuffer<double> sigma(n);
  for (size_t i = 0; i < n; ++i) {
    sigma[i] = std::sqrt(teams[i].sigma_sq);
    out[i] = {0, 0};
  }
  for (size_t i = 0; i < n; ++i) {
    const size_t q_end = pairing == Pairing::kFull ? n : std::min(n, i + 2);
    for (size_t q = i + 1; q < q_end; ++q) {
      const double c = c_scale * std::sqrt(teams[i].sigma_sq + teams[q].sigma_sq + two_beta_sq);
      const int order = teams[q].rank > teams[i].rank ? 1 : teams[q].rank < teams[i].rank ? -1 : 0;
      const PairTerms terms = Term({teams[i], sigma[i]}, {teams[q], sigma[q]}, c, order);
      out[i].omega += terms.i.omega;
      out[i].delta += terms.i.delta;
      out[q].omega += terms.q.omega;
      out[q].delta += terms.q.delta;
    }
  }
}

}  // namespace

void Pairwise(const RatingModelConfig& config, std::span<const TeamTotals> teams,
              std::span<TeamUpdate> out) {
  switch (config.kind) {
    case ModelKind::kThurstoneMostellerFull:
      return Rate<ThurstoneMosteller, Pairing::kFull>(config, 1.0, teams, out);
    case ModelKind::kThurstoneMostellerPart:
      return Rate<ThurstoneMosteller, Pairing::kPartial>(config, 2.0, teams, out);
    case ModelKind::kBradleyTerryFull:
      return Rate<BradleyTerry, Pairing::kFull>(config, 1.0, teams, out);
    case ModelKind::kBradleyTerryPart:
      return Rate<BradleyTerry, Pairing::kPartial>(config, 1.0, teams, out);
    case ModelKind::kPlackettLuce:
      break;  // not pairwise: Rate() calls PlackettLuce
  }
}

}  // namespace boneyard::ratings::internal
