// The `boneyard` program's shell: reading the command line, dispatching to a group of
// subcommands, the exit code. The engine's commands are one group (EngineCommands()); the
// program itself (services/cli/main.cc) lists every group it offers, so the engine never
// names anything above it.
#ifndef BONEYARD_ENGINE_CLI_PROGRAM_H_
#define BONEYARD_ENGINE_CLI_PROGRAM_H_

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/cli/commands.h"

namespace boneyard::cli {

// A set of subcommands offered by the program.
struct CommandGroup {
  // Runs `command` with the words after it if the group has it; std::nullopt when it does not.
  std::optional<int> (*run)(const std::string& command, const std::vector<std::string>& args,
                            Io& io);
  // The group's part of `boneyard help`.
  std::string (*usage)();
};

// games, simulate, replay, play.
CommandGroup EngineCommands();

// Dispatches `args` (the words after the program's name) to the first group that has the
// command; `help` prints every group's usage. Returns the exit code.
int Dispatch(const std::vector<std::string>& args, std::span<const CommandGroup> groups, Io& io);

// The whole of main(): the standard streams, Dispatch, and exit code 1 for an escaped
// exception.
int RunProgram(int argc, char** argv, std::span<const CommandGroup> groups);

}  // namespace boneyard::cli

#endif  // BONEYARD_ENGINE_CLI_PROGRAM_H_
