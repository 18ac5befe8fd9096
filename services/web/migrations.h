// The web service's schema migrations (migrations/*.sql), embedded in the
// binary at build time by services/common/embed_migrations.cmake.
#ifndef BONEYARD_SERVICES_WEB_MIGRATIONS_H_
#define BONEYARD_SERVICES_WEB_MIGRATIONS_H_

#include <vector>

#include "services/common/migrations.h"

namespace boneyard::web {

std::vector<Migration> WebMigrations();

}  // namespace boneyard::web

#endif  // BONEYARD_SERVICES_WEB_MIGRATIONS_H_
