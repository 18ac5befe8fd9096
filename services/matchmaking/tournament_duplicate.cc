#include "services/matchmaking/tournament_duplicate.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "services/matchmaking/tournament_plan.h"

namespace boneyard::matchmaking {
namespace {

// One holding of a hand: an entrant's seat at its table.
struct Holding {
  int entrant = 0;
  int board = 0;
  int seat = 0;
  int place = 0;
  double score = 0;
  double pips_left = 0;  // a solitaire's second measure (Castle Rock); 0 elsewhere
  bool forfeited = false;
  double matchpoints = 0;
};

// Better holdings sort first: not forfeited, a better place, a better score, fewer pips left.
std::tuple<bool, int, double, double> Key(const Holding& h, bool lower_wins) {
  return {h.forfeited, h.place, lower_wins ? h.score : -h.score, h.pips_left};
}

// The pips a solitaire's result left (MatchResult.details "pips_left"); 0 when it has none.
double PipsLeft(const v1::MatchResult& result) {
  const auto& fields = result.details().fields();
  auto it = fields.find("pips_left");
  return it == fields.end() ? 0 : it->second.number_value();
}

// Each holder's matchpoints within its hand's group, which ends sorted best first (ties by board).
// Sorted, a run of equal holders beat everyone after it: n log n for a field of any size.
void Matchpoints(std::vector<Holding>& group, bool lower_wins) {
  std::stable_sort(group.begin(), group.end(), [&](const Holding& a, const Holding& b) {
    return std::make_pair(Key(a, lower_wins), a.board) <
           std::make_pair(Key(b, lower_wins), b.board);
  });
  const size_t n = group.size();
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    while (j < n && Key(group[j], lower_wins) == Key(group[i], lower_wins)) ++j;
    const double won = static_cast<double>(n - j) + 0.5 * static_cast<double>(j - i - 1);
    for (size_t k = i; k < j; ++k) group[k].matchpoints = n == 1 ? 0.5 : won / (n - 1);
    i = j;
  }
}

// The cheapest assignment of `members` to `seats` (as many of each, at most 8) under cost(member
// index, seat): a DP over the seats taken, first member first. The total and, by member, the seat.
std::pair<int64_t, std::vector<int>> CheapestSeats(
    int members, const std::vector<int>& seats,
    const std::function<int64_t(int member, int seat)>& cost) {
  const int n = static_cast<int>(seats.size());
  constexpr int64_t kNone = std::numeric_limits<int64_t>::max();
  // best[mask]: the cheapest way to seat the first popcount(mask) members in `mask`'s seats.
  std::vector<int64_t> best(size_t{1} << n, kNone);
  std::vector<int> choice(size_t{1} << n, -1);
  best[0] = 0;
  for (uint32_t mask = 0; mask < (1u << n); ++mask) {
    if (best[mask] == kNone) continue;
    const int member = __builtin_popcount(mask);
    if (member >= members) continue;
    for (int s = 0; s < n; ++s) {
      if (mask & (1u << s)) continue;
      const uint32_t next = mask | (1u << s);
      const int64_t total = best[mask] + cost(member, seats[s]);
      if (total < best[next]) {
        best[next] = total;
        choice[next] = s;
      }
    }
  }
  std::vector<int> seat_of(members, -1);
  uint32_t mask = (1u << n) - 1;
  for (int member = members - 1; member >= 0; --member) {
    const int s = choice[mask];
    seat_of[member] = seats[s];
    mask &= ~(1u << s);
  }
  return {best[(1u << n) - 1], seat_of};
}

}  // namespace

SeatCounts SeatCountsBefore(const TournamentData& data, int round) {
  SeatCounts held;
  for (const PairingRow& p : data.pairings) {
    if (p.round >= round || p.override_outcome == v1::BYE) continue;
    const int k = static_cast<int>(p.table.size());
    for (int seat = 0; seat < k; ++seat) {
      std::vector<int>& counts = held[k][p.table[seat]];
      counts.resize(k, 0);
      ++counts[seat];
    }
  }
  return held;
}

std::vector<int> BalancedSeats(const SeatCounts& held_by_size, const v1::Tournament& settings,
                               const std::vector<int>& seated) {
  const int k = static_cast<int>(seated.size());
  if (k < 2 || k > 8) return seated;
  static const std::map<int, std::vector<int>> kNobody;
  auto size = held_by_size.find(k);
  const std::map<int, std::vector<int>>& held = size == held_by_size.end() ? kNobody : size->second;
  auto times = [&](int entrant, int seat) -> int64_t {
    auto it = held.find(entrant);
    return it == held.end() ? 0 : it->second[seat];
  };
  // Fewest holdings first; among equals, the schedule's own seat.
  auto cost = [&](int slot, int seat) -> int64_t {
    return times(seated[slot], seat) * 2 * k + (seat == slot ? 0 : 1);
  };
  std::vector<int> seat_of;
  if (IsPartnerRotation(settings)) {
    // The teams alternate: the even places' team takes the seats of one parity, the odd's the other
    // parity.
    int64_t best = std::numeric_limits<int64_t>::max();
    for (int parity = 0; parity < 2; ++parity) {
      int64_t total = 0;
      std::vector<int> option(k, -1);
      for (int team = 0; team < 2; ++team) {
        std::vector<int> slots, seats;
        for (int i = team; i < k; i += 2) slots.push_back(i);
        for (int s = (team + parity) % 2; s < k; s += 2) seats.push_back(s);
        auto [sum, seat_of_member] =
            CheapestSeats(static_cast<int>(slots.size()), seats,
                          [&](int member, int seat) { return cost(slots[member], seat); });
        total += sum;
        for (size_t m = 0; m < slots.size(); ++m) option[slots[m]] = seat_of_member[m];
      }
      if (total < best) {
        best = total;
        seat_of = std::move(option);
      }
    }
  } else {
    std::vector<int> seats(k);
    for (int s = 0; s < k; ++s) seats[s] = s;
    seat_of = CheapestSeats(k, seats, cost).second;
  }
  std::vector<int> out(k, 0);
  for (int slot = 0; slot < k; ++slot) out[seat_of[slot]] = seated[slot];
  return out;
}

uint64_t RoundDealSeed(const std::string& secret, int round) {
  const std::string message = absl::StrCat("boneyard duplicate round ", round);
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
       reinterpret_cast<const unsigned char*>(message.data()), message.size(), mac, &length);
  uint64_t seed = 0;
  for (int i = 0; i < 8; ++i) seed = (seed << 8) | mac[i];
  return seed;
}

std::string DealGroupName(const std::string& tournament_id, int round) {
  return absl::StrCat("tournaments/", tournament_id, "/rounds/", round);
}

DuplicateRound EvaluateDuplicateRound(const TournamentData& data, const v1::Tournament& settings,
                                      int round) {
  DuplicateRound out;
  const bool lower_wins = LowerScoreWins(settings);
  // Hands by (table size, seat).
  std::map<std::pair<int, int>, std::vector<Holding>> hands;
  bool complete = true;
  const std::map<int, std::vector<const GameRow*>> round_games = RoundGames(data, round);
  for (const PairingRow& p : data.pairings) {
    if (p.round != round) continue;
    const int seats = static_cast<int>(p.table.size());
    if (p.override_outcome == v1::BYE) {
      TableState& bye = out.tables[p.board];
      bye.outcome = v1::BYE;
      bye.places.assign(seats, 0);
      bye.points.assign(seats, 0);
      bye.game_points.assign(seats, 0);
      continue;
    }
    out.tables[p.board];  // undecided until every game of the round is over
    auto games = round_games.find(p.board);
    v1::MatchResult result;
    if (games == round_games.end() || games->second.back()->result.empty() ||
        !result.ParseFromString(games->second.back()->result) || result.ranks_size() < seats) {
      complete = false;
      continue;
    }
    const std::vector<int> places = PlacesOf(result, seats);
    for (int seat = 0; seat < seats; ++seat) {
      Holding h;
      h.entrant = p.table[seat];
      h.board = p.board;
      h.seat = seat;
      h.place = places[seat];
      h.score = seat < result.scores_size() ? result.scores(seat) : 0;
      h.pips_left = PipsLeft(result);
      h.forfeited = std::find(result.forfeited_seats().begin(), result.forfeited_seats().end(),
                              seat) != result.forfeited_seats().end();
      hands[{seats, seat}].push_back(h);
    }
  }
  if (!complete) return out;
  out.finished = true;
  // Each table's seats: their matchpoints and scores.
  std::map<int, std::vector<double>> matchpoints, scores;
  for (auto& [hand, group] : hands) {
    Matchpoints(group, lower_wins);
    v1::HandComparison& comparison = out.comparisons.emplace_back();
    comparison.set_table_size(hand.first);
    comparison.set_seat(hand.second);
    for (const Holding& h : group) {
      v1::HandResult& r = *comparison.add_results();
      r.set_entrant(h.entrant);
      r.set_board(h.board);
      r.set_place(h.place);
      r.set_score(h.score);
      if (h.pips_left > 0) r.set_pips_left(static_cast<int32_t>(h.pips_left));
      r.set_matchpoints(h.matchpoints);
      const int seats = hand.first;
      matchpoints[h.board].resize(seats, 0);
      scores[h.board].resize(seats, 0);
      matchpoints[h.board][h.seat] = h.matchpoints;
      scores[h.board][h.seat] = h.score;
    }
  }
  for (auto& [board, state] : out.tables) {
    if (state.decided()) continue;  // a sit-out
    state.points = matchpoints[board];
    state.game_points = scores[board];
    const int seats = static_cast<int>(state.points.size());
    // Places at the table by the round's points: 1 + how many scored more.
    state.places.assign(seats, 1);
    for (int i = 0; i < seats; ++i) {
      for (int j = 0; j < seats; ++j) {
        if (state.points[j] > state.points[i] + 1e-9) ++state.places[i];
      }
    }
    state.outcome = v1::PLACED;
  }
  return out;
}

}  // namespace boneyard::matchmaking
