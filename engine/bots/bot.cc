#include "engine/bots/bot.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/core/registry.h"

namespace boneyard {

Action RandomBot::ChooseAction(const View& view, std::span<const Action> legal) {
  return legal[rng_.Below(static_cast<uint32_t>(legal.size()))];
}

void BotRegistry::Register(std::string game, std::string bot, BotFactory factory) {
  factories_[std::move(game)][std::move(bot)] = std::move(factory);
}

std::vector<std::string> BotRegistry::BotsFor(absl::string_view game) const {
  std::vector<std::string> out{"random"};
  auto it = factories_.find(game);
  if (it != factories_.end()) {
    for (const auto& [name, f] : it->second) {
      if (name != "random") out.push_back(name);
    }
  }
  return out;
}

absl::StatusOr<std::unique_ptr<Bot>> BotRegistry::Make(absl::string_view bot, const Game& game,
                                                       uint64_t seed) const {
  auto it = factories_.find(game.name());
  if (it != factories_.end()) {
    auto f = it->second.find(std::string(bot));
    if (f != it->second.end()) return f->second(game, seed);
  }
  if (bot == "random") return std::make_unique<RandomBot>(seed);
  return absl::NotFoundError(absl::StrCat("unknown bot '", bot, "' for ", game.name(),
                                          " (bots: ", absl::StrJoin(BotsFor(game.name()), ", "),
                                          ")"));
}

absl::StatusOr<std::unique_ptr<Bot>> BotRegistry::MakeDefault(const Game& game,
                                                              uint64_t seed) const {
  const GameSpec* spec = DefaultRegistry().Find(game.name());
  if (spec == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("no default bot: '", game.name(), "' is not registered"));
  }
  return Make(spec->default_bot, game, seed);
}

const BotRegistry& DefaultBots() {
  static const BotRegistry* registry = [] {
    auto* r = new BotRegistry;
    RegisterAllBots(*r);
    return r;
  }();
  return *registry;
}

}  // namespace boneyard
