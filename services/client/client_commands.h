// The `boneyard` commands that talk to the services over gRPC (docs/cli.md): they are linked
// into the CLI when the services are built. Exit codes as for every command
// (engine/cli/commands.h), plus 4 when the service answers with an error or cannot be reached.
#ifndef BONEYARD_SERVICES_CLIENT_CLIENT_COMMANDS_H_
#define BONEYARD_SERVICES_CLIENT_CLIENT_COMMANDS_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/cli/commands.h"

namespace boneyard::client {

// Runs `command` if it is a service command; std::nullopt when it is not one.
std::optional<int> RunClientCommand(const std::string& command,
                                    const std::vector<std::string>& args, cli::Io& io);

// The usage lines of the service commands, appended to `boneyard help`.
std::string ClientUsage();

}  // namespace boneyard::client

#endif  // BONEYARD_SERVICES_CLIENT_CLIENT_COMMANDS_H_
