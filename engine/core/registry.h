// The game registry: which games exist, their rule options and presets, and how to make a
// Game from a name and rule overrides. Games are registered explicitly (RegisterAllGames),
// not by static initialisers.
#ifndef BONEYARD_ENGINE_CORE_REGISTRY_H_
#define BONEYARD_ENGINE_CORE_REGISTRY_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "absl/status/statusor.h"
#include "engine/core/game.h"
#include "engine/core/rules.h"

namespace boneyard {

struct GameSpec {
  std::string name;     // "muggins"
  std::string title;    // "Muggins (All Fives)"
  std::string summary;  // one sentence
  int min_seats = 1;
  int max_seats = 1;
  std::vector<OptionSpec> options;
  std::vector<Preset> presets;
  // The built-in bot that stands in for a seat wherever "a sensible move for this seat" is
  // needed: a timed-out player, an over-budget bot, `simulate --seats default`. Required.
  std::string default_bot;
  // Makes the game from fully resolved rules; rejects combinations (the error names them).
  std::function<absl::StatusOr<std::shared_ptr<const Game>>(const Rules&)> factory;
};

class GameRegistry {
 public:
  absl::Status Register(GameSpec spec);
  const GameSpec* Find(absl::string_view name) const;
  std::vector<const GameSpec*> List() const;  // by name
  std::vector<std::string> Names() const;

  // NOT_FOUND for an unknown game; INVALID_ARGUMENT naming the option for bad rules.
  absl::StatusOr<std::shared_ptr<const Game>> CreateGame(absl::string_view name,
                                                         const RuleText& overrides) const;
  absl::StatusOr<std::shared_ptr<const Game>> CreateGame(
      absl::string_view name, const std::map<std::string, OptionValue>& overrides) const;

 private:
  absl::StatusOr<const GameSpec*> FindOrError(absl::string_view name) const;
  std::map<std::string, GameSpec, std::less<>> games_;
};

// Every game boneyard ships (engine/games/register_all.cc).
void RegisterAllGames(GameRegistry& registry);
// A registry with every game, built once.
const GameRegistry& DefaultRegistry();

}  // namespace boneyard

#endif  // BONEYARD_ENGINE_CORE_REGISTRY_H_
