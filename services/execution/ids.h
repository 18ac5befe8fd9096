// Match ids, seeds and resource names. Seat tokens are services/common/tokens.h's
// NewSecretToken.
#ifndef BONEYARD_SERVICES_EXECUTION_IDS_H_
#define BONEYARD_SERVICES_EXECUTION_IDS_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace boneyard::execution {

// 32 lower-case hex digits from the OS's CSPRNG: a new match's id.
std::string NewMatchId();
// A 64-bit seed from the OS's CSPRNG.
uint64_t NewSeed();

// "matches/{id}" → id; INVALID_ARGUMENT naming the expected form otherwise. Ids are 1 to 64
// characters of [a-z0-9_-], so a well-formed but unknown id is NOT_FOUND later, not malformed.
absl::StatusOr<std::string> ParseMatchName(absl::string_view name);
// "matches/{id}/record" → id.
absl::StatusOr<std::string> ParseRecordName(absl::string_view name);
std::string MatchName(absl::string_view id);

}  // namespace boneyard::execution

#endif  // BONEYARD_SERVICES_EXECUTION_IDS_H_
