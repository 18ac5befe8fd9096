#include "services/matchmaking/tournament/knockout.h"

#include <algorithm>
#include <array>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace boneyard::tournament {
namespace {

absl::Status Invalid(const std::string& field, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrCat(field, ": ", why));
}

// The doubling of the header: seed 1's half on top and, elsewhere, a sub-bracket's favourite
// in its lower half, as the NCAA prints its regions; round-1 ties the higher seed upper.
std::vector<int> Lines(int size) {
  std::vector<int> seeds = {1};
  for (int length = 1; length < size; length *= 2) {
    const bool last = length * 2 == size;
    std::vector<int> doubled;
    doubled.reserve(length * 2);
    for (int s : seeds) {
      const int partner = 2 * length + 1 - s;
      if (last || s == 1) {
        doubled.insert(doubled.end(), {s, partner});
      } else {
        doubled.insert(doubled.end(), {partner, s});
      }
    }
    seeds = std::move(doubled);
  }
  return seeds;
}

Feed Seed(int s) { return {Feed::Kind::kSeed, s}; }
Feed WinnerOf(int tie) { return {Feed::Kind::kWinnerOf, tie}; }
Feed LoserOf(int tie) { return {Feed::Kind::kLoserOf, tie}; }

// The full-size bracket before byes are taken out: seeds above the entrant count stand for byes.
struct FullBracket {
  std::vector<Tie> ties;
  std::vector<std::vector<int>> winners;  // winners[r][i]: the id of winners' round r tie i
};

int AddTie(std::vector<Tie>& ties, BracketPart part, int round, int position, Feed upper,
           Feed lower, int stage) {
  Tie tie;
  tie.id = static_cast<int>(ties.size());
  tie.part = part;
  tie.round = round;
  tie.position = position;
  tie.slots = {upper, lower};
  tie.stage = stage;
  ties.push_back(tie);
  return tie.id;
}

// The crossing mask for the drop-ins of winners' round k + 1 into `ties` losers' ties: the
// header's cycle. Below 4 ties T/4 is 0, the plain order, which is then as good as any.
int CrossingMask(int k, int ties) {
  switch ((k - 1) % 3) {
    case 0:
      return ties / 2;
    case 1:
      return ties / 4;
    default:
      return ties * 3 / 4;
  }
}

FullBracket BuildFull(const KnockoutSpec& spec, int size, int rounds) {
  const bool double_elimination = spec.elimination == Elimination::kDouble;
  FullBracket full;
  std::vector<Tie>& ties = full.ties;
  full.winners.assign(rounds + 1, {});
  const std::vector<int> lines = Lines(size);
  auto add_winners_round = [&](int r) {
    for (int i = 0; i < size >> r; ++i) {
      const Feed upper = r == 1 ? Seed(lines[2 * i]) : WinnerOf(full.winners[r - 1][2 * i]);
      const Feed lower = r == 1 ? Seed(lines[2 * i + 1]) : WinnerOf(full.winners[r - 1][2 * i + 1]);
      full.winners[r].push_back(
          AddTie(ties, BracketPart::kWinners, r, i, upper, lower, double_elimination ? 0 : r));
    }
  };
  add_winners_round(1);
  if (!double_elimination) {
    for (int r = 2; r <= rounds; ++r) add_winners_round(r);
    return full;
  }
  // Losers' rounds 2k - 1 and 2k are played alongside winners' round k + 1; ids follow that
  // order, so that every tie comes after its feeders.
  std::vector<int> survivors;  // the latest losers' round's ties, top to bottom
  for (int k = 1; k < rounds; ++k) {
    add_winners_round(k + 1);
    std::vector<int> merged;
    if (k == 1) {
      for (int j = 0; j < size / 4; ++j) {
        merged.push_back(AddTie(ties, BracketPart::kLosers, 1, j, LoserOf(full.winners[1][2 * j]),
                                LoserOf(full.winners[1][2 * j + 1]), 1));
      }
    } else {
      for (int j = 0; 2 * j < static_cast<int>(survivors.size()); ++j) {
        merged.push_back(AddTie(ties, BracketPart::kLosers, 2 * k - 1, j,
                                WinnerOf(survivors[2 * j]), WinnerOf(survivors[2 * j + 1]),
                                2 * k - 1));
      }
    }
    const int count = static_cast<int>(merged.size());
    const int mask = CrossingMask(k, count);
    survivors.clear();
    for (int j = 0; j < count; ++j) {
      survivors.push_back(AddTie(ties, BracketPart::kLosers, 2 * k, j, WinnerOf(merged[j]),
                                 LoserOf(full.winners[k + 1][j ^ mask]), 2 * k));
    }
  }
  const int final_stage = 2 * rounds - 1;  // after the last losers' round, 2 (rounds - 1)
  const Feed losers_champion =
      survivors.empty() ? LoserOf(full.winners[1][0]) : WinnerOf(survivors[0]);
  const int grand_final = AddTie(ties, BracketPart::kGrandFinal, 1, 0,
                                 WinnerOf(full.winners[rounds][0]), losers_champion, final_stage);
  if (spec.reset == BracketReset::kIfLosersBracketWins) {
    AddTie(ties, BracketPart::kGrandFinalReset, 1, 0, LoserOf(grand_final), WinnerOf(grand_final),
           final_stage);
  }
  return full;
}

// Takes out the ties with an empty slot, passing their one entrant on, and renumbers the rest.
std::vector<Tie> RemoveByes(const std::vector<Tie>& full, int entrants) {
  std::vector<std::optional<Feed>> winner(full.size()), loser(full.size());
  std::vector<Tie> kept;
  for (const Tie& tie : full) {
    std::array<std::optional<Feed>, 2> slots;
    for (int s = 0; s < 2; ++s) {
      const Feed& f = tie.slots[s];
      switch (f.kind) {
        case Feed::Kind::kSeed:
          if (f.value <= entrants) slots[s] = f;
          break;
        case Feed::Kind::kWinnerOf:
          slots[s] = winner[f.value];
          break;
        case Feed::Kind::kLoserOf:
          slots[s] = loser[f.value];
          break;
      }
    }
    if (slots[0] && slots[1]) {
      Tie t = tie;
      t.id = static_cast<int>(kept.size());
      t.slots = {*slots[0], *slots[1]};
      winner[tie.id] = WinnerOf(t.id);
      loser[tie.id] = LoserOf(t.id);
      kept.push_back(t);
    } else {
      winner[tie.id] = slots[0] ? slots[0] : slots[1];
    }
  }
  return kept;
}

}  // namespace

absl::StatusOr<std::vector<int>> SeedLines(int size) {
  if (size < 2 || size > kMaxKnockoutEntrants || (size & (size - 1)) != 0) {
    return Invalid("size", absl::StrCat("must be a power of two from 2 to ", kMaxKnockoutEntrants,
                                        ", got ", size));
  }
  return Lines(size);
}

absl::StatusOr<Bracket> MakeBracket(const KnockoutSpec& spec) {
  if (spec.entrants < 2 || spec.entrants > kMaxKnockoutEntrants) {
    return Invalid("entrants", absl::StrCat("must be from 2 to ", kMaxKnockoutEntrants, ", got ",
                                            spec.entrants));
  }
  Bracket bracket;
  bracket.spec = spec;
  int rounds = 1;
  for (bracket.size = 2; bracket.size < spec.entrants; bracket.size *= 2) ++rounds;
  bracket.ties = RemoveByes(BuildFull(spec, bracket.size, rounds).ties, spec.entrants);
  return bracket;
}

absl::StatusOr<BracketState> EvaluateBracket(const Bracket& bracket,
                                             std::span<const TieResult> results) {
  const int n = bracket.spec.entrants;
  const int count = static_cast<int>(bracket.ties.size());
  if (n < 2 || n > kMaxKnockoutEntrants) {
    return Invalid("bracket.spec.entrants", absl::StrCat("out of range: ", n));
  }
  // A bracket from storage is checked, not trusted: every feed must point backwards, and the
  // reset must follow the grand final it repeats.
  for (int id = 0; id < count; ++id) {
    const Tie& tie = bracket.ties[id];
    bool ok = tie.id == id && tie.stage >= 0 && tie.stage <= count;
    for (const Feed& f : tie.slots) {
      ok = ok && (f.kind == Feed::Kind::kSeed ? f.value >= 1 && f.value <= n
                                              : f.value >= 0 && f.value < id);
    }
    if (tie.part == BracketPart::kGrandFinalReset) {
      ok = ok && tie.slots[1].kind == Feed::Kind::kWinnerOf &&
           bracket.ties[tie.slots[1].value].part == BracketPart::kGrandFinal;
    }
    if (!ok) return Invalid(absl::StrCat("bracket.ties[", id, "]"), "malformed");
  }
  std::vector<int> result_of(count, -1);
  for (int i = 0; i < static_cast<int>(results.size()); ++i) {
    const int tie = results[i].tie;
    if (tie < 0 || tie >= count) {
      return Invalid(absl::StrCat("results[", i, "].tie"), absl::StrCat("no tie ", tie));
    }
    if (result_of[tie] >= 0) {
      return Invalid(absl::StrCat("results[", i, "].tie"),
                     absl::StrCat("tie ", tie, " already has a result"));
    }
    result_of[tie] = i;
  }

  const bool reset = bracket.spec.elimination == Elimination::kDouble &&
                     bracket.spec.reset == BracketReset::kIfLosersBracketWins;
  BracketState state;
  state.ties.resize(count);
  std::vector<int> out_stage(n + 1, 0);  // by seed: the stage it went out at, 0 while in
  for (int id = 0; id < count; ++id) {
    const Tie& tie = bracket.ties[id];
    TieState& ts = state.ties[id];
    bool needed = true;
    for (int s = 0; s < 2; ++s) {
      const Feed& f = tie.slots[s];
      if (f.kind == Feed::Kind::kSeed) {
        ts.entrants[s] = f.value;
        continue;
      }
      const TieState& from = state.ties[f.value];
      if (from.status == TieStatus::kNotNeeded) needed = false;
      if (from.status != TieStatus::kDecided) continue;
      ts.entrants[s] =
          f.kind == Feed::Kind::kWinnerOf
              ? from.winner
              : (from.entrants[0] == from.winner ? from.entrants[1] : from.entrants[0]);
    }
    if (tie.part == BracketPart::kGrandFinalReset) {
      // Played only if the losers' bracket winner (the first grand final's lower slot) won.
      const TieState& first = state.ties[tie.slots[1].value];
      if (first.status == TieStatus::kDecided && first.winner == first.entrants[0]) {
        needed = false;
      }
    }
    const bool known = ts.entrants[0] != 0 && ts.entrants[1] != 0;
    ts.status = !needed ? TieStatus::kNotNeeded : (known ? TieStatus::kReady : TieStatus::kWaiting);
    if (result_of[id] < 0) {
      if (ts.status == TieStatus::kReady) state.ready.push_back(id);
      continue;
    }
    const TieResult& result = results[result_of[id]];
    if (ts.status != TieStatus::kReady) {
      return absl::FailedPreconditionError(
          absl::StrCat("results[", result_of[id], "]: tie ", id, " is not ready"));
    }
    if (result.winner != ts.entrants[0] && result.winner != ts.entrants[1]) {
      return Invalid(absl::StrCat("results[", result_of[id], "].winner"),
                     absl::StrCat("seed ", result.winner, " is not in tie ", id));
    }
    ts.status = TieStatus::kDecided;
    ts.winner = result.winner;
    const int loser = ts.entrants[0] == ts.winner ? ts.entrants[1] : ts.entrants[0];
    // The winners' bracket winner losing the first grand final goes on to the reset.
    const bool goes_on = tie.stage == 0 ||
                         (tie.part == BracketPart::kGrandFinal && reset && loser == ts.entrants[0]);
    if (!goes_on) out_stage[loser] = tie.stage;
    const bool last = tie.part == BracketPart::kGrandFinalReset ||
                      (tie.part == BracketPart::kGrandFinal && !goes_on) ||
                      (bracket.spec.elimination == Elimination::kSingle && id == count - 1);
    if (last) state.champion = ts.winner;
  }

  // Those out at stage s share the place below everyone who went out later or is still in:
  // 1 + entrants - (exits at stages up to s), counting the exits the bracket's shape fixes.
  int stages = 0;
  for (const Tie& tie : bracket.ties) stages = std::max(stages, tie.stage);
  std::vector<int> exits(stages + 1, 0);
  for (const Tie& tie : bracket.ties) {
    if (tie.stage > 0 && tie.part != BracketPart::kGrandFinalReset) ++exits[tie.stage];
  }
  std::vector<int> place(stages + 1, 0);
  for (int s = 1, total = 0; s <= stages; ++s) {
    total += exits[s];
    place[s] = 1 + n - total;
  }
  for (int seed = 1; seed <= n; ++seed) {
    if (out_stage[seed] > 0) {
      state.placings.push_back({seed, place[out_stage[seed]]});
    } else if (state.champion == seed) {
      state.placings.push_back({seed, 1});
    }
  }
  std::sort(state.placings.begin(), state.placings.end(), [](const Placing& a, const Placing& b) {
    return a.place != b.place ? a.place < b.place : a.entrant < b.entrant;
  });
  return state;
}

absl::StatusOr<SeriesState> EvaluateSeries(const SeriesRules& rules,
                                           std::span<const MatchOutcome> outcomes) {
  if (rules.best_of < 1 || rules.best_of > 99 || rules.best_of % 2 == 0) {
    return Invalid("best_of", absl::StrCat("must be odd, from 1 to 99, got ", rules.best_of));
  }
  if (rules.extra_matches < 0 || rules.extra_matches > 99) {
    return Invalid("extra_matches",
                   absl::StrCat("must be from 0 to 99, got ", rules.extra_matches));
  }
  const int needed = (rules.best_of + 1) / 2;
  const int limit = rules.best_of + rules.extra_matches;
  SeriesState state;
  for (int i = 0; i < static_cast<int>(outcomes.size()); ++i) {
    if (state.decided()) {
      return Invalid(absl::StrCat("outcomes[", i, "]"),
                     absl::StrCat("the series was decided after ", i, " matches"));
    }
    switch (outcomes[i]) {
      case MatchOutcome::kHigherSeedWon:
        ++state.higher_seed_wins;
        break;
      case MatchOutcome::kLowerSeedWon:
        ++state.lower_seed_wins;
        break;
      case MatchOutcome::kDrawn:
        ++state.draws;
        break;
    }
    if (state.higher_seed_wins == needed) {
      state.winner = SeriesSide::kHigherSeed;
    } else if (state.lower_seed_wins == needed) {
      state.winner = SeriesSide::kLowerSeed;
    } else if (i + 1 == limit) {
      state.decided_by_limit = true;
      state.winner = state.lower_seed_wins > state.higher_seed_wins ? SeriesSide::kLowerSeed
                                                                    : SeriesSide::kHigherSeed;
    }
  }
  if (!state.decided()) {
    state.next_first = outcomes.size() % 2 == 0 ? SeriesSide::kHigherSeed : SeriesSide::kLowerSeed;
  }
  return state;
}

}  // namespace boneyard::tournament
