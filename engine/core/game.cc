#include "engine/core/game.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace boneyard {

Game::Game(std::string name, Rules rules, int num_seats, Teams teams, TileSet tile_set,
           ScoreOrder order)
    : name_(std::move(name)),
      rules_(std::move(rules)),
      num_seats_(num_seats),
      teams_(std::move(teams)),
      team_of_(num_seats),
      tile_set_(tile_set),
      order_(order) {
  for (int s = 0; s < num_seats_; ++s) team_of_[s] = s;
  for (int t = 0; t < static_cast<int>(teams_.size()); ++t) {
    for (int s : teams_[t]) team_of_[s] = t;
  }
}

absl::StatusOr<std::unique_ptr<State>> Game::NewMatch(uint64_t seed, std::vector<Deal> deals) const {
  for (int r = 0; r < static_cast<int>(deals.size()); ++r) {
    if (absl::Status s = ValidateDeal(r, deals[r]); !s.ok()) return s;
  }
  return MakeState(seed, std::make_shared<const std::vector<Deal>>(std::move(deals)));
}

absl::Status Game::CheckDealTiles(int round, const Deal& deal, const std::vector<Tile>& expected,
                                  const std::vector<int>& hand_sizes) const {
  const std::string where = absl::StrCat("round ", round + 1, " deal: ");
  if (deal.hands.size() != hand_sizes.size()) {
    return absl::InvalidArgumentError(absl::StrCat(where, "has ", deal.hands.size(),
                                                   " hands for ", hand_sizes.size(), " seats"));
  }
  for (size_t s = 0; s < hand_sizes.size(); ++s) {
    if (static_cast<int>(deal.hands[s].size()) != hand_sizes[s]) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, "seat ", s, " holds ", deal.hands[s].size(), " tiles; ", name_,
                       " with ", num_seats_, " players deals ", hand_sizes[s], " each"));
    }
  }
  TileMask want;
  for (const Tile& t : expected) want.Set(tile_set_.IdOf(t));
  TileMask seen;
  auto take = [&](const Tile& t) -> absl::Status {
    if (!tile_set_.Contains(t) || !want.Test(tile_set_.IdOf(t))) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, "tile ", t.ToString(), " is not in this round's set"));
    }
    const int id = tile_set_.IdOf(t);
    if (seen.Test(id)) {
      return absl::InvalidArgumentError(absl::StrCat(where, "tile ", t.ToString(), " appears twice"));
    }
    seen.Set(id);
    return absl::OkStatus();
  };
  for (const auto& hand : deal.hands) {
    for (const Tile& t : hand) {
      if (absl::Status s = take(t); !s.ok()) return s;
    }
  }
  for (const Tile& t : deal.boneyard) {
    if (absl::Status s = take(t); !s.ok()) return s;
  }
  if (seen != want) {
    std::vector<std::string> missing;
    want.ForEach([&](int id) {
      if (!seen.Test(id)) missing.push_back(tile_set_.TileAt(id).ToString());
    });
    return absl::InvalidArgumentError(
        absl::StrCat(where, "tiles missing: ", absl::StrJoin(missing, " ")));
  }
  return absl::OkStatus();
}

absl::Status State::ExplainIllegal(Action action) const {
  if (IsLegal(action)) return absl::OkStatus();
  return absl::FailedPreconditionError(
      absl::StrCat("'", ActionToString(action), "' is not a legal action now"));
}

std::vector<int> State::Ranks() const { return RanksBy(Scores()); }

std::vector<int> State::RanksBy(const std::vector<int>& scores) const {
  const Game& g = game();
  const int n = g.num_seats();
  std::vector<int> ranks(n, 1);
  const bool higher = g.score_order() == ScoreOrder::kHigherWins;
  for (int s = 0; s < n; ++s) {
    // Count the distinct teams (or seats) that did strictly better.
    std::vector<int> better_teams;
    for (int o = 0; o < n; ++o) {
      const bool better = higher ? scores[o] > scores[s] : scores[o] < scores[s];
      if (better && std::find(better_teams.begin(), better_teams.end(), g.TeamOf(o)) ==
                        better_teams.end()) {
        better_teams.push_back(g.TeamOf(o));
      }
    }
    ranks[s] = 1 + static_cast<int>(better_teams.size());
  }
  return ranks;
}

std::vector<std::string> State::LegalActionStrings() const {
  ActionList list;
  LegalActions(list);
  std::vector<std::string> out;
  out.reserve(list.size());
  for (Action a : list) out.push_back(ActionToString(a));
  return out;
}

bool State::IsLegal(Action action) const {
  if (IsTerminal()) return false;
  ActionList list;
  LegalActions(list);
  return list.Contains(action);
}

absl::StatusOr<Action> State::ResolveAction(int seat, absl::string_view text) const {
  absl::StatusOr<Action> action = ParseAction(text);
  if (!action.ok()) return action.status();
  if (IsTerminal()) {
    return absl::FailedPreconditionError("the match is over: no more actions");
  }
  if (seat != CurrentSeat()) {
    return absl::FailedPreconditionError(
        absl::StrCat("not seat ", seat, "'s turn: seat ", CurrentSeat(), " is to play"));
  }
  if (!IsLegal(*action)) {
    absl::Status why = ExplainIllegal(*action);
    if (why.ok()) {
      why = absl::FailedPreconditionError(
          absl::StrCat("'", ActionToString(*action), "' is not a legal action now"));
    }
    return why;
  }
  return action;
}

}  // namespace boneyard
