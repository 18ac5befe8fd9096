#include "engine/core/rules.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace boneyard {
namespace {

std::string KnownNames(const std::vector<OptionSpec>& specs) {
  std::vector<std::string> names{"preset"};
  for (const auto& s : specs) names.push_back(s.name);
  return absl::StrJoin(names, ", ");
}

const OptionSpec* FindSpec(const std::vector<OptionSpec>& specs, absl::string_view name) {
  for (const auto& s : specs) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

const Preset* FindPreset(const std::vector<Preset>& presets, absl::string_view name) {
  for (const auto& p : presets) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::string PresetNames(const std::vector<Preset>& presets) {
  return absl::StrJoin(presets, ", ",
                       [](std::string* out, const Preset& p) { out->append(p.name); });
}

// Shared by both ResolveRules: `parse` turns one override into a checked value.
template <typename Overrides, typename ParseFn>
absl::StatusOr<Rules> Resolve(absl::string_view game, const std::vector<OptionSpec>& specs,
                              const std::vector<Preset>& presets, const Overrides& overrides,
                              ParseFn parse) {
  std::map<std::string, OptionValue> values;
  for (const auto& s : specs) values[s.name] = s.default_value;

  std::string preset_name;
  for (const auto& [name, value] : overrides) {
    if (name != "preset") continue;
    if (const auto* s = std::get_if<std::string>(&value)) {
      preset_name = *s;
    } else {
      return absl::InvalidArgumentError("rule option 'preset' takes a preset name");
    }
  }
  if (!preset_name.empty()) {
    const Preset* preset = FindPreset(presets, preset_name);
    if (preset == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown preset '", preset_name, "' for ", game,
          presets.empty() ? " (it has no presets)" : absl::StrCat(" (presets: ", PresetNames(presets), ")")));
    }
    for (const auto& [name, value] : preset->values) values[name] = value;
    values["preset"] = preset_name;
  } else if (!presets.empty()) {
    values["preset"] = std::string();
  }

  for (const auto& [name, value] : overrides) {
    if (name == "preset") continue;
    const OptionSpec* spec = FindSpec(specs, name);
    if (spec == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("unknown rule option '", name, "' for ",
                                                     game, " (options: ", KnownNames(specs), ")"));
    }
    absl::StatusOr<OptionValue> v = parse(*spec, value);
    if (!v.ok()) return v.status();
    values[name] = *std::move(v);
  }
  return Rules(std::move(values));
}

}  // namespace

std::string OptionValueToString(const OptionValue& v) {
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  if (const auto* i = std::get_if<int64_t>(&v)) return absl::StrCat(*i);
  return std::get<std::string>(v);
}

OptionSpec OptionSpec::Bool(std::string name, bool def, std::string description) {
  OptionSpec s;
  s.name = std::move(name);
  s.type = OptionType::kBool;
  s.default_value = def;
  s.description = std::move(description);
  return s;
}

OptionSpec OptionSpec::Int(std::string name, int64_t def, int64_t min, int64_t max,
                           std::string description) {
  OptionSpec s;
  s.name = std::move(name);
  s.type = OptionType::kInt;
  s.default_value = def;
  s.min = min;
  s.max = max;
  s.description = std::move(description);
  return s;
}

OptionSpec OptionSpec::Choice(std::string name, std::string def, std::vector<std::string> choices,
                              std::string description) {
  OptionSpec s;
  s.name = std::move(name);
  s.type = OptionType::kChoice;
  s.default_value = std::move(def);
  s.choices = std::move(choices);
  s.description = std::move(description);
  return s;
}

std::string OptionSpec::TypeName() const {
  switch (type) {
    case OptionType::kBool:
      return "bool";
    case OptionType::kInt:
      return absl::StrCat("int ", min, "..", max);
    case OptionType::kChoice:
      return absl::StrCat("one of ", absl::StrJoin(choices, "|"));
  }
  return "";
}

absl::Status OptionSpec::Check(const OptionValue& v) const {
  switch (type) {
    case OptionType::kBool:
      if (!std::holds_alternative<bool>(v)) {
        return absl::InvalidArgumentError(
            absl::StrCat("rule option '", name, "' must be true or false, got ", OptionValueToString(v)));
      }
      return absl::OkStatus();
    case OptionType::kInt: {
      const auto* i = std::get_if<int64_t>(&v);
      if (i == nullptr) {
        return absl::InvalidArgumentError(
            absl::StrCat("rule option '", name, "' must be a whole number, got ", OptionValueToString(v)));
      }
      if (*i < min || *i > max) {
        return absl::InvalidArgumentError(absl::StrCat("rule option '", name, "' must be between ",
                                                       min, " and ", max, ", got ", *i));
      }
      return absl::OkStatus();
    }
    case OptionType::kChoice: {
      const auto* s = std::get_if<std::string>(&v);
      if (s == nullptr || std::find(choices.begin(), choices.end(), *s) == choices.end()) {
        return absl::InvalidArgumentError(absl::StrCat("rule option '", name, "' must be one of ",
                                                       absl::StrJoin(choices, ", "), ", got ",
                                                       OptionValueToString(v)));
      }
      return absl::OkStatus();
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<OptionValue> OptionSpec::Parse(absl::string_view text) const {
  const std::string t = absl::AsciiStrToLower(absl::StripAsciiWhitespace(text));
  OptionValue v;
  switch (type) {
    case OptionType::kBool:
      if (t == "true" || t == "1" || t == "yes" || t == "on") {
        v = true;
      } else if (t == "false" || t == "0" || t == "no" || t == "off") {
        v = false;
      } else {
        return absl::InvalidArgumentError(
            absl::StrCat("rule option '", name, "' must be true or false, got '", text, "'"));
      }
      break;
    case OptionType::kInt: {
      int64_t i = 0;
      if (!absl::SimpleAtoi(t, &i)) {
        return absl::InvalidArgumentError(
            absl::StrCat("rule option '", name, "' must be a whole number, got '", text, "'"));
      }
      v = i;
      break;
    }
    case OptionType::kChoice:
      v = t;
      break;
  }
  if (absl::Status s = Check(v); !s.ok()) return s;
  return v;
}

const OptionValue& Rules::Get(absl::string_view name) const {
  auto it = values_.find(std::string(name));
  if (it == values_.end()) {
    // A game asking for an option it did not declare is a programming error.
    std::fprintf(stderr, "boneyard: undeclared rule option '%s'\n", std::string(name).c_str());
    std::abort();
  }
  return it->second;
}

bool Rules::GetBool(absl::string_view name) const { return std::get<bool>(Get(name)); }
int64_t Rules::GetInt(absl::string_view name) const { return std::get<int64_t>(Get(name)); }
const std::string& Rules::GetString(absl::string_view name) const {
  return std::get<std::string>(Get(name));
}

std::string Rules::ToString() const {
  return absl::StrJoin(values_, ",", [](std::string* out, const auto& kv) {
    absl::StrAppend(out, kv.first, "=", OptionValueToString(kv.second));
  });
}

absl::StatusOr<RuleText> ParseRuleText(absl::string_view text) {
  RuleText out;
  if (absl::StripAsciiWhitespace(text).empty()) return out;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    part = absl::StripAsciiWhitespace(part);
    const size_t eq = part.find('=');
    if (eq == absl::string_view::npos || eq == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("rule '", part, "' is not of the form name=value"));
    }
    std::string name(absl::StripAsciiWhitespace(part.substr(0, eq)));
    for (const auto& [seen, unused] : out) {
      if (seen == name) {
        return absl::InvalidArgumentError(absl::StrCat("rule option '", name, "' is given twice"));
      }
    }
    out.emplace_back(std::move(name), std::string(absl::StripAsciiWhitespace(part.substr(eq + 1))));
  }
  return out;
}

absl::StatusOr<Rules> ResolveRules(absl::string_view game, const std::vector<OptionSpec>& specs,
                                   const std::vector<Preset>& presets, const RuleText& overrides) {
  std::vector<std::pair<std::string, OptionValue>> typed;
  for (const auto& [name, text] : overrides) {
    if (name == "preset") {
      typed.emplace_back(name, std::string(absl::AsciiStrToLower(text)));
    } else {
      typed.emplace_back(name, text);  // parsed below, once the spec is known
    }
  }
  return Resolve(game, specs, presets, typed,
                 [](const OptionSpec& spec, const OptionValue& v) -> absl::StatusOr<OptionValue> {
                   return spec.Parse(std::get<std::string>(v));
                 });
}

absl::StatusOr<Rules> ResolveRules(absl::string_view game, const std::vector<OptionSpec>& specs,
                                   const std::vector<Preset>& presets,
                                   const std::map<std::string, OptionValue>& overrides) {
  return Resolve(game, specs, presets, overrides,
                 [](const OptionSpec& spec, const OptionValue& v) -> absl::StatusOr<OptionValue> {
                   if (absl::Status s = spec.Check(v); !s.ok()) return s;
                   return v;
                 });
}

}  // namespace boneyard
