// Rule options: what a game lets a league choose (their names, types, defaults, ranges and
// named presets) and a resolved set of values. Text values ("players=3") come from the CLI
// and the API; typed values come from records.
#ifndef BONEYARD_ENGINE_CORE_RULES_H_
#define BONEYARD_ENGINE_CORE_RULES_H_

#include <cstdint>
#include <map>
#include <string>
#include "absl/strings/string_view.h"
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"

namespace boneyard {

enum class OptionType { kBool, kInt, kChoice };

using OptionValue = std::variant<bool, int64_t, std::string>;

std::string OptionValueToString(const OptionValue& v);

struct OptionSpec {
  std::string name;
  OptionType type = OptionType::kInt;
  OptionValue default_value;
  int64_t min = 0;  // kInt only, inclusive
  int64_t max = 0;
  std::vector<std::string> choices;  // kChoice only
  std::string description;

  static OptionSpec Bool(std::string name, bool def, std::string description);
  static OptionSpec Int(std::string name, int64_t def, int64_t min, int64_t max,
                        std::string description);
  static OptionSpec Choice(std::string name, std::string def, std::vector<std::string> choices,
                           std::string description);

  std::string TypeName() const;  // "bool", "int 2..4", "one of a|b"
  // Parses and range-checks a text value; the error names the option.
  absl::StatusOr<OptionValue> Parse(absl::string_view text) const;
  // Type- and range-checks a typed value; the error names the option.
  absl::Status Check(const OptionValue& v) const;
};

struct Preset {
  std::string name;
  std::string description;
  std::vector<std::pair<std::string, OptionValue>> values;
};

// The resolved value of every option of one game (preset first, then overrides).
class Rules {
 public:
  Rules() = default;
  explicit Rules(std::map<std::string, OptionValue> values) : values_(std::move(values)) {}

  bool GetBool(absl::string_view name) const;
  int64_t GetInt(absl::string_view name) const;
  const std::string& GetString(absl::string_view name) const;
  bool Has(absl::string_view name) const { return values_.find(std::string(name)) != values_.end(); }
  const std::map<std::string, OptionValue>& values() const { return values_; }
  // "players=2,target=250" in name order.
  std::string ToString() const;

  friend bool operator==(const Rules&, const Rules&) = default;

 private:
  const OptionValue& Get(absl::string_view name) const;
  std::map<std::string, OptionValue> values_;
};

// Overrides as given by a user: option name to text ("players" -> "3").
using RuleText = std::vector<std::pair<std::string, std::string>>;

// Parses "players=3,target=150" (empty → none). Errors name the bad part.
absl::StatusOr<RuleText> ParseRuleText(absl::string_view text);

// Applies `overrides` (text) on top of the defaults and the chosen preset.
absl::StatusOr<Rules> ResolveRules(absl::string_view game, const std::vector<OptionSpec>& specs,
                                   const std::vector<Preset>& presets, const RuleText& overrides);
// The same with typed values (records).
absl::StatusOr<Rules> ResolveRules(absl::string_view game, const std::vector<OptionSpec>& specs,
                                   const std::vector<Preset>& presets,
                                   const std::map<std::string, OptionValue>& overrides);

}  // namespace boneyard

#endif  // BONEYARD_ENGINE_CORE_RULES_H_
