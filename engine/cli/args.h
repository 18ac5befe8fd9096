// A small command-line parser for the boneyard subcommands. Each command declares its flags;
// "--flag value" and "--flag=value" are both accepted, switches take no value, and anything
// unexpected (an unknown flag, a missing value, a flag given twice, a value given to a switch)
// is an INVALID_ARGUMENT error whose message names the flag. Flags are only read here and in
// the command entry points; the rest of the CLI takes plain values.
#ifndef BONEYARD_ENGINE_CLI_ARGS_H_
#define BONEYARD_ENGINE_CLI_ARGS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace boneyard::cli {

enum class FlagKind { kSwitch, kValue };

struct FlagSpec {
  std::string name;  // without the leading "--"
  FlagKind kind = FlagKind::kValue;
};

class ParsedArgs {
 public:
  // The value of a value flag, if it was given.
  std::optional<std::string> Value(absl::string_view name) const;
  // Whether a switch was given.
  bool Has(absl::string_view name) const;
  const std::vector<std::string>& positional() const { return positional_; }

  // Typed accessors: nullopt when the flag is absent, an error naming the flag when its value
  // is not a number in [min, max].
  absl::StatusOr<std::optional<int64_t>> Int(absl::string_view name, int64_t min,
                                             int64_t max) const;
  absl::StatusOr<std::optional<uint64_t>> Uint64(absl::string_view name) const;

 private:
  friend absl::StatusOr<ParsedArgs> ParseArgs(const std::vector<std::string>& args,
                                              const std::vector<FlagSpec>& specs,
                                              int max_positional);
  std::map<std::string, std::string, std::less<>> values_;
  std::set<std::string, std::less<>> switches_;
  std::vector<std::string> positional_;
};

// Parses `args` (the words after the command name). "--help" is always accepted as a switch.
// A lone "-" is a positional argument (stdin), not a flag. More than `max_positional`
// positional arguments is an error naming the first extra one.
absl::StatusOr<ParsedArgs> ParseArgs(const std::vector<std::string>& args,
                                     const std::vector<FlagSpec>& specs, int max_positional = 0);

// Parses a whole decimal number in [min, max]; `what` names it in the error ("--matches").
absl::StatusOr<int64_t> ParseInt(absl::string_view text, absl::string_view what, int64_t min,
                                 int64_t max);
// Parses a non-negative decimal number that fits in 64 bits (seeds).
absl::StatusOr<uint64_t> ParseUint64(absl::string_view text, absl::string_view what);

}  // namespace boneyard::cli

#endif  // BONEYARD_ENGINE_CLI_ARGS_H_
