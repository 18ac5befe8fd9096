// The fairest split of a table into teams: every assignment of its tickets to `teams` teams of
// `team_size` that keeps each ticket (a party) within one team, scored by how far the teams'
// predicted win chances (ratings::PredictWin) are from even. Among the splits within
// kEvenEnough of the most even one, the one that puts the fewest recent partners together
// again wins, then the most even, then the first found. Exhaustive: 2x2 has 3 splits of four
// single players, 3x3 10, 4x4 35 (empty teams are interchangeable, so each split is seen once).
#ifndef BONEYARD_SERVICES_MATCHMAKING_MATCHING_TEAM_SPLIT_H_
#define BONEYARD_SERVICES_MATCHMAKING_MATCHING_TEAM_SPLIT_H_

#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "services/ratings/model/weng_lin.h"

namespace boneyard::matchmaking {

// One ticket of the table as the split sees it: its members' ratings.
using SplitTicket = std::vector<ratings::SkillRating>;

struct TeamSplit {
  // For each team, the indices of its tickets.
  std::vector<std::vector<int>> teams;
  std::vector<double> win_chance;
  // Recent partnerships it repeats.
  int repeats = 0;
  // Splits looked at.
  int considered = 0;
};

// How far from even (in predicted chance) a split may be and still be preferred for keeping
// recent partners apart.
inline constexpr double kEvenEnough = 0.02;

// How many recent partnerships putting tickets `a` and `b` on one team would repeat.
using RecentPartners = std::function<int(int a, int b)>;

// nullopt when no assignment fills every team exactly (the tickets' sizes do not pack).
// `recent` may be empty (no history).
std::optional<TeamSplit> BestSplit(const ratings::RatingModelConfig& model,
                                   std::span<const SplitTicket> tickets, int teams,
                                   int team_size, const RecentPartners& recent = {});

// Whether tickets of these sizes fit in `teams` teams of `team_size` without splitting one,
// leaving seats free if need be.
bool Packs(std::span<const int> sizes, int teams, int team_size);

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_MATCHING_TEAM_SPLIT_H_
