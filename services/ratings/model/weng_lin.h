// Weng-Lin Bayesian rating, the model behind the OpenSkill libraries: one update for 1v1, two
// or more teams and free-for-all (every player a team of one), with ties.
//
// Source: R. C. Weng and C.-J. Lin, "A Bayesian Approximation Method for Online Ranking",
// JMLR 12 (2011), algorithms 1-4 (Bradley-Terry full/partial pairing, Thurstone-Mosteller
// full/partial pairing) and the Plackett-Luce update; constants and numerics as the
// `openskill` npm package 5.x, which the tests match to 1e-9 (tests/ratings/fixtures/).
//
// A plain library: no gRPC, no database. Pure functions of their inputs, safe from any thread.
//
//   RatingModelConfig config;                       // Plackett-Luce, OpenSkill's defaults
//   std::vector<std::vector<SkillRating>> teams = {{alice}, {bob}};
//   absl::StatusOr<std::vector<std::vector<SkillRating>>> after =
//       Rate(config, teams, /*ranks=*/{1, 2});       // alice beat bob
#ifndef BONEYARD_SERVICES_RATINGS_MODEL_WENG_LIN_H_
#define BONEYARD_SERVICES_RATINGS_MODEL_WENG_LIN_H_

#include <span>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace boneyard::ratings {

enum class ModelKind {
  kPlackettLuce,
  kThurstoneMostellerFull,
  kThurstoneMostellerPart,
  kBradleyTerryFull,
  kBradleyTerryPart,
};

// "plackett_luce", "thurstone_mosteller_full", ... (flags, logs, docs).
std::string_view ModelKindName(ModelKind kind);

// The inverse of ModelKindName; INVALID_ARGUMENT naming the unknown name.
absl::StatusOr<ModelKind> ParseModelKind(std::string_view name);

struct RatingModelConfig {
  ModelKind kind = ModelKind::kPlackettLuce;
  double mu = 25.0;
  double sigma = 25.0 / 3.0;
  double beta = 25.0 / 6.0;  // sigma / 2
  double kappa = 0.0001;
  // Added (as tau^2 to each variance) before a match; 0 = none.
  double tau = 0.0;
  // With tau: a match never raises a player's sigma (openskill's `limitSigma`).
  bool limit_sigma = false;
};

// OK, or INVALID_ARGUMENT naming the field: mu finite; sigma, beta finite and > 0; kappa,
// tau finite and >= 0; kind one of ModelKind's values.
absl::Status ValidateConfig(const RatingModelConfig& config);

struct SkillRating {
  double mu = 25.0;
  double sigma = 25.0 / 3.0;
  // The displayed rating, mu - 3 sigma.
  double Ordinal() const { return mu - 3.0 * sigma; }
};

// A new player's rating under `config`.
SkillRating InitialRating(const RatingModelConfig& config);

// The ratings after one match. `teams[t]` are team t's members' ratings before it; `ranks[t]`
// is team t's place, lower is better, equal ranks tie (any integers: 1, 2, 2, 4 or 0, 1, 1).
// Returns the teams' members' ratings in the same shape.
//
// INVALID_ARGUMENT (naming what) when: fewer than 2 teams, an empty team, ranks.size() !=
// teams.size(), a non-finite rank, a non-finite mu or a non-finite or non-positive sigma, or
// an invalid config.
//
// As openskill: teams are stably sorted by rank, rated, and put back in the caller's order, so
// the order of the input does not matter except between tied teams (partial pairing compares
// each team with its neighbours in that sorted order). Thurstone-Mosteller's draw margin is
// openskill's default epsilon, 0.1.
absl::StatusOr<std::vector<std::vector<SkillRating>>> Rate(
    const RatingModelConfig& config, std::span<const std::vector<SkillRating>> teams,
    std::span<const double> ranks);

// The chance that a team with rating sums (mu_a, var_a: its members' mu and sigma² added up)
// beats one with (mu_b, var_b), in a match of `teams` teams: Φ((mu_a − mu_b) /
// sqrt(teams · β² + var_a + var_b)), openskill's pairwise term. Allocates nothing, for
// matchmaking's search over splits.
double WinChance(const RatingModelConfig& config, double mu_a, double var_a, double mu_b,
                 double var_b, int teams = 2);

// Each team's chance to win the match, as openskill's predictWin (5.x): every pair of teams
// meets with WinChance, and a team's chance is its expected pairwise wins over the number of
// pairs, so the chances add up to 1. For two teams, the chance each beats the other.
// INVALID_ARGUMENT for fewer than 2 teams, an empty team, or a non-finite mu or sigma.
absl::StatusOr<std::vector<double>> PredictWin(const RatingModelConfig& config,
                                               std::span<const std::vector<SkillRating>> teams);

// Up to this many teams, an update keeps its scratch space on the stack.
inline constexpr int kInlineTeams = 16;

// The same update without validation or allocation of the result's shape: `out` must have
// the shape of `teams`. For bulk re-rating, where inputs were validated when stored.
// Allocates nothing for up to kInlineTeams teams. `out` may be the same vectors as `teams`
// (rating in place).
void RateUnchecked(const RatingModelConfig& config,
                   std::span<const std::vector<SkillRating>> teams,
                   std::span<const double> ranks,
                   std::span<std::vector<SkillRating>> out);

}  // namespace boneyard::ratings

#endif  // BONEYARD_SERVICES_RATINGS_MODEL_WENG_LIN_H_
