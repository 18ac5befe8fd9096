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
#include "services/common/tokens.h"
#include "services/matchmaking/pg_matchmaking_store.h"

namespace boneyard::matchmaking {

// The prefix of the ids a ladder's house bots are rated under ("house:{ladder}:{bot}"); no
// player id may begin with it.
inline constexpr char kHouseBotPrefix[] = "house:";

// INVALID_ARGUMENT "field: why".
absl::Status Invalid(absl::string_view field, absl::string_view why);

// "{collection}/{id}" (e.g. "players/ann") → the id; INVALID_ARGUMENT naming `field`
// otherwise.
absl::StatusOr<std::string> ParseName(absl::string_view name, absl::string_view collection,
                                      absl::string_view field);

// Now, as stored: to the microsecond, so an answer equals what a later read shows.
absl::Time StoredNow();

// The caller of a call that needs a token (tournaments, ladders): nullopt for the operator, else
// the player whose token it is; UNAUTHENTICATED without a token or for one nobody holds.
absl::StatusOr<std::optional<std::string>> CallingPlayer(const Authenticator& auth,
                                                         PgMatchmakingStore& players,
                                                         const std::optional<std::string>& token);
// OK for the operator token; a player's token is PERMISSION_DENIED, anything else as
// Authenticator::RequireOperator says.
absl::Status RequireOperatorToken(const Authenticator& auth, PgMatchmakingStore& players,
                                  const std::optional<std::string>& token);

// The queue a stored row holds; INTERNAL when its settings do not parse.
absl::StatusOr<v1::Queue> QueueFromRow(const QueueRow& row);

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_LOGIC_HELPERS_H_
