// The matchmaking service's schema changes (services/matchmaking/migrations/NNNN_name.sql),
// compiled into the binary by boneyard_embed_migrations (services/common/embed_migrations.cmake).
// PgMatchmakingStore::Open applies them; nothing else needs to.
#ifndef BONEYARD_SERVICES_MATCHMAKING_MIGRATIONS_H_
#define BONEYARD_SERVICES_MATCHMAKING_MIGRATIONS_H_

#include <vector>

#include "services/common/migrations.h"

namespace boneyard::matchmaking {

// Every migration in version order (1, 2, ... N), with its file name and SQL.
std::vector<Migration> MatchmakingMigrations();

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_MIGRATIONS_H_
