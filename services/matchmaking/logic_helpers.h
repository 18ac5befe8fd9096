// Small pieces the matchmaking logic's files share (matchmaking_logic.cc, ticket_calls.cc).
// Internal to services/matchmaking.
#ifndef BONEYARD_SERVICES_MATCHMAKING_LOGIC_HELPERS_H_
#define BONEYARD_SERVICES_MATCHMAKING_LOGIC_HELPERS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "boneyard/v1/matchmaking.pb.h"
#include "services/matchmaking/pg_matchmaking_store.h"

namespace boneyard::matchmaking {

// INVALID_ARGUMENT "field: why".
absl::Status Invalid(absl::string_view field, absl::string_view why);

// "{collection}/{id}" (e.g. "players/ann") → the id; INVALID_ARGUMENT naming `field`
// otherwise.
absl::StatusOr<std::string> ParseName(absl::string_view name, absl::string_view collection,
                                      absl::string_view field);

// Now, as stored: to the microsecond, so an answer equals what a later read shows.
absl::Time StoredNow();

// The queue a stored row holds; INTERNAL when its settings do not parse.
absl::StatusOr<v1::Queue> QueueFromRow(const QueueRow& row);

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_LOGIC_HELPERS_H_
