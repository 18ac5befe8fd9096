#include "engine/cli/args.h"

#include <algorithm>
#include <limits>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace boneyard::cli {
namespace {

const FlagSpec* FindFlag(const std::vector<FlagSpec>& specs, absl::string_view name) {
  for (const FlagSpec& spec : specs) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

// "-" (stdin) and negative numbers ("--seed -1") are values, so their errors can say what is
// wrong with the value rather than report a missing one.
bool LooksLikeFlag(absl::string_view word) {
  return word.size() >= 2 && word[0] == '-' && !absl::ascii_isdigit(word[1]);
}

}  // namespace

std::optional<std::string> ParsedArgs::Value(absl::string_view name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

bool ParsedArgs::Has(absl::string_view name) const { return switches_.contains(name); }

absl::StatusOr<std::optional<int64_t>> ParsedArgs::Int(absl::string_view name, int64_t min,
                                                       int64_t max) const {
  std::optional<std::string> text = Value(name);
  if (!text.has_value()) return std::optional<int64_t>();
  absl::StatusOr<int64_t> value = ParseInt(*text, absl::StrCat("--", name), min, max);
  if (!value.ok()) return value.status();
  return std::optional<int64_t>(*value);
}

absl::StatusOr<std::optional<uint64_t>> ParsedArgs::Uint64(absl::string_view name) const {
  std::optional<std::string> text = Value(name);
  if (!text.has_value()) return std::optional<uint64_t>();
  absl::StatusOr<uint64_t> value = ParseUint64(*text, absl::StrCat("--", name));
  if (!value.ok()) return value.status();
  return std::optional<uint64_t>(*value);
}

absl::StatusOr<ParsedArgs> ParseArgs(const std::vector<std::string>& args,
                                     const std::vector<FlagSpec>& specs, int max_positional) {
  ParsedArgs parsed;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (!LooksLikeFlag(word)) {
      if (static_cast<int>(parsed.positional_.size()) >= max_positional) {
        return absl::InvalidArgumentError(absl::StrCat("unexpected argument '", word, "'"));
      }
      parsed.positional_.push_back(word);
      continue;
    }
    if (!absl::StartsWith(word, "--")) {
      // Single-dash flags are not supported (except -h); say so rather than guess.
      if (word == "-h") {
        parsed.switches_.insert("help");
        continue;
      }
      return absl::InvalidArgumentError(
          absl::StrCat("unknown flag '", word, "' (flags start with '--')"));
    }
    const absl::string_view body = absl::string_view(word).substr(2);
    const size_t eq = body.find('=');
    const std::string name(body.substr(0, eq));
    const FlagSpec* spec = FindFlag(specs, name);
    if (spec == nullptr && name == "help") {
      static const FlagSpec kHelp{"help", FlagKind::kSwitch};
      spec = &kHelp;
    }
    if (spec == nullptr) return absl::InvalidArgumentError(absl::StrCat("unknown flag '--", name, "'"));
    if (parsed.switches_.contains(name) || parsed.values_.contains(name)) {
      return absl::InvalidArgumentError(absl::StrCat("flag '--", name, "' is given twice"));
    }
    if (spec->kind == FlagKind::kSwitch) {
      if (eq != absl::string_view::npos) {
        return absl::InvalidArgumentError(absl::StrCat("flag '--", name, "' takes no value"));
      }
      parsed.switches_.insert(name);
      continue;
    }
    std::string value;
    if (eq != absl::string_view::npos) {
      value = std::string(body.substr(eq + 1));
    } else if (i + 1 < args.size() && !LooksLikeFlag(args[i + 1])) {
      value = args[++i];
    } else if (i + 1 < args.size()) {
      // The next word being another flag almost always means the value was forgotten; a value
      // that really starts with '-' (a secret, say) has a way in.
      return absl::InvalidArgumentError(
          absl::StrCat("flag '--", name, "' needs a value ('", args[i + 1],
                       "' reads as a flag; write --", name, "=VALUE for a value starting with '-')"));
    } else {
      return absl::InvalidArgumentError(absl::StrCat("flag '--", name, "' needs a value"));
    }
    if (absl::StripAsciiWhitespace(value).empty()) {
      return absl::InvalidArgumentError(absl::StrCat("flag '--", name, "' needs a value"));
    }
    parsed.values_[name] = std::move(value);
  }
  return parsed;
}

absl::StatusOr<int64_t> ParseInt(absl::string_view text, absl::string_view what, int64_t min,
                                 int64_t max) {
  int64_t value = 0;
  if (!absl::SimpleAtoi(text, &value)) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " must be a whole number, got '", text, "'"));
  }
  if (value < min || value > max) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " must be between ", min, " and ", max, ", got ", value));
  }
  return value;
}

absl::StatusOr<uint64_t> ParseUint64(absl::string_view text, absl::string_view what) {
  const absl::string_view stripped = absl::StripAsciiWhitespace(text);
  uint64_t value = 0;
  // SimpleAtoi would accept a sign; a seed is written as a plain non-negative number.
  const bool digits_only = !stripped.empty() &&
                           std::all_of(stripped.begin(), stripped.end(), absl::ascii_isdigit);
  if (!digits_only || !absl::SimpleAtoi(stripped, &value)) {
    return absl::InvalidArgumentError(absl::StrCat(
        what, " must be a whole number from 0 to ", std::numeric_limits<uint64_t>::max(),
        ", got '", text, "'"));
  }
  return value;
}

}  // namespace boneyard::cli
