// Rate(): validation, then RateUnchecked(): tau, the team sums, the stable sort by rank that
// openskill's rate() does (sort-unwind), one model kind's per-team update, and the share-out
// to the members in the caller's order.
#include "services/ratings/model/weng_lin.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "services/ratings/model/normal.h"
#include "services/ratings/model/small_buffer.h"
#include "services/ratings/model/team_update.h"

namespace boneyard::ratings {
namespace {

constexpr std::pair<ModelKind, std::string_view> kKindNames[] = {
    {ModelKind::kPlackettLuce, "plackett_luce"},
    {ModelKind::kThurstoneMostellerFull, "thurstone_mosteller_full"},
    {ModelKind::kThurstoneMostellerPart, "thurstone_mosteller_part"},
    {ModelKind::kBradleyTerryFull, "bradley_terry_full"},
    {ModelKind::kBradleyTerryPart, "bradley_terry_part"},
};

absl::string_view AbslView(std::string_view s) { return {s.data(), s.size()}; }

absl::Status Invalid(std::string_view what, double value, std::string_view must) {
  return absl::InvalidArgumentError(
      absl::StrCat(AbslView(what), " is ", value, ": must be ", AbslView(must)));
}

}  // namespace

std::string_view ModelKindName(ModelKind kind) {
  for (const auto& [k, name] : kKindNames) {
    if (k == kind) return name;
  }
  return "unknown";
}

absl::StatusOr<ModelKind> ParseModelKind(std::string_view name) {
  for (const auto& [kind, k_name] : kKindNames) {
    if (k_name == name) return kind;
  }
  std::vector<absl::string_view> known;
  for (const auto& [kind, k_name] : kKindNames) known.push_back(AbslView(k_name));
  return absl::InvalidArgumentError(absl::StrCat("unknown rating model \"", AbslView(name),
                                                 "\": one of ", absl::StrJoin(known, ", ")));
}

absl::Status ValidateConfig(const RatingModelConfig& config) {
  if (!std::isfinite(config.mu)) return Invalid("config mu", config.mu, "finite");
  if (!(std::isfinite(config.sigma) && config.sigma > 0)) {
    return Invalid("config sigma", config.sigma, "finite and > 0");
  }
  if (!(std::isfinite(config.beta) && config.beta > 0)) {
    return Invalid("config beta", config.beta, "finite and > 0");
  }
  if (!(std::isfinite(config.kappa) && config.kappa >= 0)) {
    return Invalid("config kappa", config.kappa, "finite and >= 0");
  }
  if (!(std::isfinite(config.tau) && config.tau >= 0)) {
    return Invalid("config tau", config.tau, "finite and >= 0");
  }
  if (ModelKindName(config.kind) == "unknown") {
    return absl::InvalidArgumentError(
        absl::StrCat("config kind ", static_cast<int>(config.kind), " is not a model kind"));
  }
  return absl::OkStatus();
}

SkillRating InitialRating(const RatingModelConfig& config) {
  return {.mu = config.mu, .sigma = config.sigma};
}

absl::StatusOr<std::vector<std::vector<SkillRating>>> Rate(
    const RatingModelConfig& config, std::span<const std::vector<SkillRating>> teams,
    std::span<const double> ranks) {
  if (absl::Status status = ValidateConfig(config); !status.ok()) return status;
  if (teams.size() < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("a match needs at least 2 teams, got ", teams.size()));
  }
  if (ranks.size() != teams.size()) {
    return absl::InvalidArgumentError(absl::StrCat("ranks has ", ranks.size(), " entries for ",
                                                   teams.size(), " teams: one per team"));
  }
  for (size_t t = 0; t < teams.size(); ++t) {
    if (teams[t].empty())
      return absl::InvalidArgumentError(absl::StrCat("teams[", t, "] is empty"));
    if (!std::isfinite(ranks[t]))
      return Invalid(absl::StrCat("ranks[", t, "]"), ranks[t], "finite");
    for (size_t p = 0; p < teams[t].size(); ++p) {
      const SkillRating& player = teams[t][p];
      if (!std::isfinite(player.mu)) {
        return Invalid(absl::StrCat("teams[", t, "][", p, "].mu"), player.mu, "finite");
      }
      if (!(std::isfinite(player.sigma) && player.sigma > 0)) {
        return Invalid(absl::StrCat("teams[", t, "][", p, "].sigma"), player.sigma,
                       "finite and > 0");
      }
    }
  }
  std::vector<std::vector<SkillRating>> out(teams.begin(), teams.end());
  RateUnchecked(config, teams, ranks, out);
  return out;
}

void RateUnchecked(const RatingModelConfig& config, std::span<const std::vector<SkillRating>> teams,
                   std::span<const double> ranks, std::span<std::vector<SkillRating>> out) {
  using internal::TeamTotals;
  using internal::TeamUpdate;
  const size_t n = teams.size();
  const double tau_sq = config.tau * config.tau;
  // openskill widens every sigma by tau before the match: sqrt(sigma^2 + tau^2), squared
  // again where a variance is needed. With tau = 0 that sqrt is the identity in IEEE
  // arithmetic, so it is skipped.
  auto widened = [&](double sigma) {
    return tau_sq == 0 ? sigma : std::sqrt(sigma * sigma + tau_sq);
  };

  // order[k] = the input index of the k-th team by rank; equal ranks keep the input order
  // (openskill sorts with JavaScript's stable sort). Insertion sort: n is small.
  internal::SmallBuffer<size_t> order(n);
  for (size_t k = 0; k < n; ++k) {
    size_t j = k;
    for (; j > 0 && ranks[order[j - 1]] > ranks[k]; --j) order[j] = order[j - 1];
    order[j] = k;
  }

  internal::SmallBuffer<TeamTotals> totals(n);
  for (size_t k = 0; k < n; ++k) {
    TeamTotals& team = totals[k];
    team = {.mu = 0, .sigma_sq = 0, .rank = ranks[order[k]]};
    for (const SkillRating& player : teams[order[k]]) {
      const double sigma = widened(player.sigma);
      team.mu += player.mu;
      team.sigma_sq += sigma * sigma;
    }
  }

  internal::SmallBuffer<TeamUpdate> updates(n);
  if (config.kind == ModelKind::kPlackettLuce) {
    internal::PlackettLuce(config, totals.span(), updates.span());
  } else {
    internal::Pairwise(config, totals.span(), updates.span());
  }

  // Each member takes the share of the team's update that their variance is of the team's.
  const bool limit_sigma = config.limit_sigma && tau_sq != 0;
  for (size_t k = 0; k < n; ++k) {
    const std::vector<SkillRating>& members = teams[order[k]];
    std::vector<SkillRating>& result = out[order[k]];
    const TeamTotals& team = totals[k];
    const TeamUpdate& update = updates[k];
    for (size_t p = 0; p < members.size(); ++p) {
      const SkillRating before = members[p];  // a copy: `out` may alias `teams`
      const double sigma = widened(before.sigma);
      const double share = sigma * sigma / team.sigma_sq;
      double new_sigma = sigma * std::sqrt(std::max(1.0 - share * update.delta, config.kappa));
      if (limit_sigma) new_sigma = std::min(new_sigma, before.sigma);
      result[p] = {.mu = before.mu + share * update.omega, .sigma = new_sigma};
    }
  }
}

double WinChance(const RatingModelConfig& config, double mu_a, double var_a, double mu_b,
                 double var_b, int teams) {
  const double spread = std::sqrt(teams * config.beta * config.beta + var_a + var_b);
  return internal::NormalCdf((mu_a - mu_b) / spread);
}

absl::StatusOr<std::vector<double>> PredictWin(const RatingModelConfig& config,
                                               std::span<const std::vector<SkillRating>> teams) {
  const int n = static_cast<int>(teams.size());
  if (n < 2) return absl::InvalidArgumentError("predict win: needs at least 2 teams");
  std::vector<double> mu(n, 0.0);
  std::vector<double> var(n, 0.0);
  for (int t = 0; t < n; ++t) {
    if (teams[t].empty()) {
      return absl::InvalidArgumentError(absl::StrCat("predict win: team ", t, " is empty"));
    }
    for (const SkillRating& player : teams[t]) {
      if (!std::isfinite(player.mu) || !std::isfinite(player.sigma)) {
        return absl::InvalidArgumentError(
            absl::StrCat("predict win: team ", t, " has a non-finite rating"));
      }
      mu[t] += player.mu;
      var[t] += player.sigma * player.sigma;
    }
  }
  std::vector<double> wins(n, 0.0);
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      const double p = WinChance(config, mu[a], var[a], mu[b], var[b], n);
      wins[a] += p;
      wins[b] += 1 - p;
    }
  }
  const double pairs = n * (n - 1) / 2.0;
  for (double& w : wins) w /= pairs;
  return wins;
}

}  // namespace boneyard::ratings
