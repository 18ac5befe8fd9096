// The `boneyard` commands that talk to the services over gRPC (docs/cli.md): one of the
// program's command groups (services/cli/main.cc). Exit codes as for every command
// (engine/cli/commands.h), plus 4 when the service answers with an error or cannot be reached.
#ifndef BONEYARD_SERVICES_CLIENT_CLIENT_COMMANDS_H_
#define BONEYARD_SERVICES_CLIENT_CLIENT_COMMANDS_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/cli/commands.h"
#include "engine/cli/program.h"

namespace boneyard::client {

// Runs `command` if it is a service command; std::nullopt when it is not one.
std::optional<int> RunClientCommand(const std::string& command,
                                    const std::vector<std::string>& args, cli::Io& io);

// The usage lines of the service commands, appended to `boneyard help`.
std::string ClientUsage();

// RunClientCommand and ClientUsage as the program's command group.
cli::CommandGroup ClientCommands();

}  // namespace boneyard::client

#endif  // BONEYARD_SERVICES_CLIENT_CLIENT_COMMANDS_H_
