// Bots see exactly what a seat may know: ViewFor(seat) and that seat's legal actions, never
// the State. So a bot cannot cheat, and the same bot can later run as a remote client.
// Bots are seeded and deterministic: the same seed, view and legal actions give the same move.
#ifndef BONEYARD_ENGINE_BOTS_BOT_H_
#define BONEYARD_ENGINE_BOTS_BOT_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "absl/status/statusor.h"
#include "engine/core/action.h"
#include "engine/core/game.h"
#include "engine/core/rng.h"
#include "engine/core/view.h"

namespace boneyard {

class Bot {
 public:
  virtual ~Bot() = default;
  // `legal` is never empty; the result must be one of its elements.
  virtual Action ChooseAction(const View& view, std::span<const Action> legal) = 0;
};

// Uniform over the legal actions.
class RandomBot : public Bot {
 public:
  explicit RandomBot(uint64_t seed) : rng_(seed) {}
  Action ChooseAction(const View& view, std::span<const Action> legal) override;

 private:
  Rng rng_;
};

using BotFactory = std::function<std::unique_ptr<Bot>(const Game& game, uint64_t seed)>;

// Bot kinds by name, per game; "random" works for every game.
class BotRegistry {
 public:
  void Register(std::string game, std::string bot, BotFactory factory);
  // NOT_FOUND naming the bots this game has.
  absl::StatusOr<std::unique_ptr<Bot>> Make(absl::string_view bot, const Game& game,
                                            uint64_t seed) const;
  std::vector<std::string> BotsFor(absl::string_view game) const;
  // The game's default bot (GameSpec::default_bot in DefaultRegistry()).
  absl::StatusOr<std::unique_ptr<Bot>> MakeDefault(const Game& game, uint64_t seed) const;

 private:
  std::map<std::string, std::map<std::string, BotFactory>, std::less<>> factories_;
};

// Every built-in bot (engine/games/register_all.cc).
void RegisterAllBots(BotRegistry& registry);
const BotRegistry& DefaultBots();

}  // namespace boneyard

#endif  // BONEYARD_ENGINE_BOTS_BOT_H_
