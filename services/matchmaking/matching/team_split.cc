#include "services/matchmaking/matching/team_split.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace boneyard::matchmaking {
namespace {

class SplitSearch {
 public:
  SplitSearch(const ratings::RatingModelConfig& model, std::span<const SplitTicket> tickets,
              int teams, int team_size, const RecentPartners& recent)
      : model_(model),
        recent_(recent),
        tickets_(tickets),
        team_size_(team_size),
        team_of_(tickets.size(), -1),
        filled_(teams, 0),
        mu_(teams, 0.0),
        var_(teams, 0.0) {}

  std::optional<TeamSplit> Run() {
    Place(0);
    if (splits_.empty()) return std::nullopt;
    double most_even = 1;
    for (const Candidate& c : splits_) most_even = std::min(most_even, c.gap);
    const Candidate* best = nullptr;
    for (const Candidate& c : splits_) {
      if (c.gap > most_even + kEvenEnough) continue;
      if (best == nullptr || c.split.repeats < best->split.repeats ||
          (c.split.repeats == best->split.repeats && c.gap < best->gap)) {
        best = &c;
      }
    }
    TeamSplit split = best->split;
    split.considered = static_cast<int>(splits_.size());
    return split;
  }

 private:
  void Place(size_t ticket) {
    const int teams = static_cast<int>(filled_.size());
    if (ticket == tickets_.size()) {
      Score();
      return;
    }
    const int size = static_cast<int>(tickets_[ticket].size());
    for (int team = 0; team < teams; ++team) {
      if (filled_[team] + size > team_size_) continue;
      Move(ticket, team, +1);
      Place(ticket + 1);
      Move(ticket, team, -1);
      // Empty teams are interchangeable: trying the first one is trying them all.
      if (filled_[team] == 0) break;
    }
  }

  void Move(size_t ticket, int team, int sign) {
    team_of_[ticket] = sign > 0 ? team : -1;
    filled_[team] += sign * static_cast<int>(tickets_[ticket].size());
    for (const ratings::SkillRating& member : tickets_[ticket]) {
      mu_[team] += sign * member.mu;
      var_[team] += sign * member.sigma * member.sigma;
    }
  }

  void Score() {
    const int teams = static_cast<int>(filled_.size());
    for (int f : filled_) {
      if (f != team_size_) return;
    }
    // PredictWin's pairwise sum, on the running totals (no allocation per split).
    std::vector<double> chance(teams, 0.0);
    for (int a = 0; a < teams; ++a) {
      for (int b = a + 1; b < teams; ++b) {
        const double p = ratings::WinChance(model_, mu_[a], var_[a], mu_[b], var_[b], teams);
        chance[a] += p;
        chance[b] += 1 - p;
      }
    }
    const double pairs = teams * (teams - 1) / 2.0;
    double gap = 0;
    for (double& c : chance) {
      c /= pairs;
      gap = std::max(gap, std::abs(c - 1.0 / teams));
    }
    Candidate& candidate = splits_.emplace_back();
    candidate.gap = gap;
    TeamSplit& split = candidate.split;
    split.teams.resize(teams);
    for (size_t t = 0; t < team_of_.size(); ++t) {
      split.teams[team_of_[t]].push_back(static_cast<int>(t));
    }
    split.win_chance = std::move(chance);
    if (recent_) {
      for (const std::vector<int>& team : split.teams) {
        for (size_t i = 0; i < team.size(); ++i) {
          for (size_t j = i + 1; j < team.size(); ++j) split.repeats += recent_(team[i], team[j]);
        }
      }
    }
  }

  struct Candidate {
    TeamSplit split;
    double gap = 0;
  };

  const ratings::RatingModelConfig& model_;
  const RecentPartners& recent_;
  std::span<const SplitTicket> tickets_;
  const int team_size_;
  std::vector<int> team_of_;
  std::vector<int> filled_;
  std::vector<double> mu_;
  std::vector<double> var_;
  std::vector<Candidate> splits_;
};

}  // namespace

std::optional<TeamSplit> BestSplit(const ratings::RatingModelConfig& model,
                                   std::span<const SplitTicket> tickets, int teams,
                                   int team_size, const RecentPartners& recent) {
  return SplitSearch(model, tickets, teams, team_size, recent).Run();
}

bool Packs(std::span<const int> sizes, int teams, int team_size) {
  std::vector<int> sorted(sizes.begin(), sizes.end());
  std::sort(sorted.begin(), sorted.end(), std::greater<>());
  std::vector<int> free(teams, team_size);
  // Largest first into any team with room; backtracking is cheap at these sizes (<= 16 seats).
  std::function<bool(size_t)> fit = [&](size_t i) {
    if (i == sorted.size()) return true;
    for (int team = 0; team < teams; ++team) {
      if (free[team] < sorted[i]) continue;
      free[team] -= sorted[i];
      if (fit(i + 1)) return true;
      free[team] += sorted[i];
      if (free[team] == team_size) break;  // empty teams are interchangeable
    }
    return false;
  };
  return fit(0);
}

}  // namespace boneyard::matchmaking
