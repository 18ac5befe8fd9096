#include "services/matchmaking/tournament/arena.h"

#include <algorithm>

namespace boneyard::tournament {

ArenaScore ScoreArena(const std::vector<ArenaOutcome>& games) {
  ArenaScore s;
  for (ArenaOutcome o : games) {
    const int factor = s.on_streak() ? 2 : 1;
    int points = 0;
    switch (o) {
      case ArenaOutcome::kWin:
        points = 2 * factor;
        ++s.wins;
        ++s.streak;
        break;
      case ArenaOutcome::kDraw:
        points = factor;
        s.streak = 0;
        break;
      case ArenaOutcome::kLoss:
        s.streak = 0;
        break;
    }
    s.points += points;
    s.sheet.push_back(points);
    ++s.games;
  }
  return s;
}

std::vector<std::pair<int, int>> PairArena(std::vector<ArenaCandidate> idle) {
  std::sort(idle.begin(), idle.end(), [](const ArenaCandidate& a, const ArenaCandidate& b) {
    if (a.points != b.points) return a.points > b.points;
    if (a.rating != b.rating) return a.rating > b.rating;
    return a.id < b.id;
  });
  std::vector<std::pair<int, int>> pairs;
  std::vector<bool> paired(idle.size(), false);
  for (size_t i = 0; i < idle.size(); ++i) {
    if (paired[i]) continue;
    const size_t last = std::min(idle.size(), i + 1 + kArenaPairingWindow);
    for (size_t j = i + 1; j < last; ++j) {
      if (paired[j]) continue;
      if (idle[i].last_opponent == idle[j].id || idle[j].last_opponent == idle[i].id) continue;
      paired[i] = paired[j] = true;
      pairs.emplace_back(idle[i].id, idle[j].id);
      break;
    }
  }
  return pairs;
}

}  // namespace boneyard::tournament
