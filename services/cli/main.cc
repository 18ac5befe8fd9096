// The `boneyard` program: the engine's commands (simulate, replay, play, ...) and the service
// commands (create, watch, connect, load, ...). It sits above both, so the engine's commands
// stay a library that knows nothing of the services (docs/architecture.md).
#include "engine/cli/program.h"
#include "services/client/client_commands.h"

int main(int argc, char** argv) {
  const boneyard::cli::CommandGroup groups[] = {boneyard::cli::EngineCommands(),
                                                boneyard::client::ClientCommands()};
  return boneyard::cli::RunProgram(argc, argv, groups);
}
