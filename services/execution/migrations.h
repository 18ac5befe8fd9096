// The execution service's schema changes (services/execution/migrations/NNNN_name.sql),
// compiled into the binary by boneyard_embed_migrations (services/common/embed_migrations.cmake):
//
//   ApplyMigrations(pool, "exec", ExecutionMigrations());
//
// OpenPgMatchStore applies them; nothing else needs to.
#ifndef BONEYARD_SERVICES_EXECUTION_MIGRATIONS_H_
#define BONEYARD_SERVICES_EXECUTION_MIGRATIONS_H_

#include <vector>

#include "services/common/migrations.h"

namespace boneyard::execution {

// Every migration in version order (1, 2, ... N), with its file name and SQL.
std::vector<Migration> ExecutionMigrations();

}  // namespace boneyard::execution

#endif  // BONEYARD_SERVICES_EXECUTION_MIGRATIONS_H_
