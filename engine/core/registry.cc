#include "engine/core/registry.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace boneyard {

absl::Status GameRegistry::Register(GameSpec spec) {
  if (games_.contains(spec.name)) {
    return absl::AlreadyExistsError(absl::StrCat("game '", spec.name, "' is registered twice"));
  }
  if (spec.default_bot.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("game '", spec.name, "' names no default bot"));
  }
  std::string name = spec.name;
  games_.emplace(std::move(name), std::move(spec));
  return absl::OkStatus();
}

const GameSpec* GameRegistry::Find(absl::string_view name) const {
  auto it = games_.find(name);
  return it == games_.end() ? nullptr : &it->second;
}

std::vector<const GameSpec*> GameRegistry::List() const {
  std::vector<const GameSpec*> out;
  for (const auto& [name, spec] : games_) out.push_back(&spec);
  return out;
}

std::vector<std::string> GameRegistry::Names() const {
  std::vector<std::string> out;
  for (const auto& [name, spec] : games_) out.push_back(name);
  return out;
}

absl::StatusOr<const GameSpec*> GameRegistry::FindOrError(absl::string_view name) const {
  const GameSpec* spec = Find(name);
  if (spec == nullptr) {
    return absl::NotFoundError(absl::StrCat("unknown game '", name, "' (games: ",
                                            absl::StrJoin(Names(), ", "), ")"));
  }
  return spec;
}

namespace {

// Both CreateGame overloads: resolve the overrides (text or typed) against the spec, then build.
template <typename Overrides>
absl::StatusOr<std::shared_ptr<const Game>> Create(const GameSpec& spec,
                                                   const Overrides& overrides) {
  absl::StatusOr<Rules> rules = ResolveRules(spec.name, spec.options, spec.presets, overrides);
  if (!rules.ok()) return rules.status();
  return spec.factory(*rules);
}

}  // namespace

absl::StatusOr<std::shared_ptr<const Game>> GameRegistry::CreateGame(
    absl::string_view name, const RuleText& overrides) const {
  absl::StatusOr<const GameSpec*> spec = FindOrError(name);
  if (!spec.ok()) return spec.status();
  return Create(**spec, overrides);
}

absl::StatusOr<std::shared_ptr<const Game>> GameRegistry::CreateGame(
    absl::string_view name, const std::map<std::string, OptionValue>& overrides) const {
  absl::StatusOr<const GameSpec*> spec = FindOrError(name);
  if (!spec.ok()) return spec.status();
  return Create(**spec, overrides);
}

const GameRegistry& DefaultRegistry() {
  static const GameRegistry* registry = [] {
    auto* r = new GameRegistry;
    RegisterAllGames(*r);
    return r;
  }();
  return *registry;
}

}  // namespace boneyard
