#include "services/execution/ids.h"

#include <cstring>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "services/common/tokens.h"
#include "services/common/validation.h"

namespace boneyard::execution {
namespace {

bool IsIdChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

bool IsId(absl::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id) {
    if (!IsIdChar(c)) return false;
  }
  return true;
}

}  // namespace

std::string NewMatchId() { return absl::BytesToHexString(RandomBytes(16)); }

uint64_t NewSeed() {
  const std::string bytes = RandomBytes(8);
  uint64_t seed = 0;
  std::memcpy(&seed, bytes.data(), sizeof(seed));
  return seed;
}

absl::StatusOr<std::string> ParseMatchName(absl::string_view name) {
  absl::string_view id = name;
  if (!absl::ConsumePrefix(&id, "matches/") || !IsId(id)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "name: ", validation::Quote(name), " is not of the form \"matches/{id}\""));
  }
  return std::string(id);
}

absl::StatusOr<std::string> ParseRecordName(absl::string_view name) {
  absl::string_view id = name;
  if (!absl::ConsumePrefix(&id, "matches/") || !absl::ConsumeSuffix(&id, "/record") || !IsId(id)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "name: ", validation::Quote(name), " is not of the form \"matches/{id}/record\""));
  }
  return std::string(id);
}

std::string MatchName(absl::string_view id) { return absl::StrCat("matches/", id); }

}  // namespace boneyard::execution
