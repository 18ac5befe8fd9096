// The ratings service's schema changes (services/ratings/migrations/NNNN_name.sql), compiled
// into the binary by boneyard_embed_migrations (services/common/embed_migrations.cmake).
// PgRatingStore::Open applies them; nothing else needs to.
#ifndef BONEYARD_SERVICES_RATINGS_MIGRATIONS_H_
#define BONEYARD_SERVICES_RATINGS_MIGRATIONS_H_

#include <vector>

#include "services/common/migrations.h"

namespace boneyard::ratings {

// Every migration in version order (1, 2, ... N), with its file name and SQL.
std::vector<Migration> RatingsMigrations();

}  // namespace boneyard::ratings

#endif  // BONEYARD_SERVICES_RATINGS_MIGRATIONS_H_
