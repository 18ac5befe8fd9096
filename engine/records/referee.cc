#include "engine/records/referee.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace boneyard {
namespace {

absl::Status WithPrefix(const absl::Status& s, absl::string_view prefix) {
  return absl::Status(s.code(), absl::StrCat(prefix, s.message()));
}

// The deals of the leading rounds that have one; later rounds are dealt from the seed.
absl::StatusOr<std::vector<Deal>> DealsOf(const Record& record) {
  std::vector<Deal> deals;
  bool dealt_from_seed = false;
  for (size_t r = 0; r < record.rounds.size(); ++r) {
    const auto& deal = record.rounds[r].deal;
    if (!deal.has_value()) {
      dealt_from_seed = true;
      continue;
    }
    if (dealt_from_seed) {
      return absl::InvalidArgumentError(absl::StrCat(
          "record: round ", r + 1, " has a deal but an earlier round has none; give every "
          "round's deal or leave the later ones to the seed"));
    }
    deals.push_back(*deal);
  }
  if (!record.rounds.empty() && !record.rounds[0].deal.has_value() && !record.seed.has_value()) {
    return absl::InvalidArgumentError("record: round 1 has no deal and the record has no seed");
  }
  return deals;
}

}  // namespace

absl::StatusOr<std::shared_ptr<const Game>> GameForRecord(const Record& record,
                                                          const GameRegistry& registry) {
  std::map<std::string, OptionValue> rules = record.rules;
  const GameSpec* spec = registry.Find(record.game);
  if (spec != nullptr && !rules.contains("players") && !record.rounds.empty() &&
      record.rounds[0].deal.has_value()) {
    for (const OptionSpec& o : spec->options) {
      if (o.name == "players") {
        rules["players"] = static_cast<int64_t>(record.rounds[0].deal->hands.size());
      }
    }
  }
  absl::StatusOr<std::shared_ptr<const Game>> game = registry.CreateGame(record.game, rules);
  if (!game.ok()) return WithPrefix(game.status(), "record: ");
  if (!record.teams.empty() && record.teams != (*game)->teams()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "record: teams do not match the rules (", (*game)->rules().ToString(), ")"));
  }
  return game;
}

absl::StatusOr<std::unique_ptr<State>> Replay(const Record& record, const GameRegistry& registry) {
  return Replay(record, registry, [](const State&, const RecordedAction*) {});
}

absl::StatusOr<std::unique_ptr<State>> Replay(const Record& record, const GameRegistry& registry,
                                              ReplayStep on_step) {
  absl::StatusOr<std::shared_ptr<const Game>> game = GameForRecord(record, registry);
  if (!game.ok()) return game.status();
  absl::StatusOr<std::vector<Deal>> deals = DealsOf(record);
  if (!deals.ok()) return deals.status();
  absl::StatusOr<std::unique_ptr<State>> made =
      (*game)->NewMatch(record.seed.value_or(0), *std::move(deals));
  if (!made.ok()) return WithPrefix(made.status(), "record: ");
  std::unique_ptr<State> state = *std::move(made);
  on_step(*state, nullptr);

  for (int r = 0; r < static_cast<int>(record.rounds.size()); ++r) {
    const auto& actions = record.rounds[r].actions;
    if (state->Round() != r && !(state->IsTerminal() && actions.empty())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "record: round ", r + 1, " starts while the match is in round ", state->Round() + 1,
          state->IsTerminal() ? " and over" : "; the previous round is not finished"));
    }
    for (int i = 0; i < static_cast<int>(actions.size()); ++i) {
      const RecordedAction& a = actions[i];
      const std::string where = absl::StrCat("round ", r + 1, ", action ", i + 1, ", seat ",
                                             a.seat, ", \"", a.action, "\": ");
      if (state->Round() != r) {
        return absl::FailedPreconditionError(
            absl::StrCat(where, state->IsTerminal() ? "the match is already over"
                                                    : "the round is already over"));
      }
      absl::StatusOr<Action> action = state->ResolveAction(a.seat, a.action);
      if (!action.ok()) return WithPrefix(action.status(), where);
      state->Apply(*action);
      on_step(*state, &a);
    }
  }

  if (record.result.has_value()) {
    if (!state->IsTerminal()) {
      return absl::InvalidArgumentError(
          "record: it has a result but the replayed match is not over");
    }
    const RecordedResult replayed = ResultOf(*state);
    if (!record.result->scores.empty() && record.result->scores != replayed.scores) {
      return absl::InvalidArgumentError(absl::StrCat(
          "record: the recorded scores (", absl::StrJoin(record.result->scores, ", "),
          ") differ from the replay's (", absl::StrJoin(replayed.scores, ", "), ")"));
    }
  }
  return state;
}

}  // namespace boneyard
