#include "engine/cli/program.h"

#include <unistd.h>

#include <exception>
#include <iostream>

#include "absl/synchronization/mutex.h"

namespace boneyard::cli {
namespace {

std::optional<int> RunEngineCommand(const std::string& command,
                                    const std::vector<std::string>& args, Io& io) {
  if (command == "games") return RunGames(args, io);
  if (command == "simulate") return RunSimulate(args, io);
  if (command == "match-bots") return RunMatchBots(args, io);
  if (command == "replay") return RunReplay(args, io);
  if (command == "play") return RunPlay(args, io);
  return std::nullopt;
}

}  // namespace

CommandGroup EngineCommands() { return {&RunEngineCommand, &Usage}; }

int Dispatch(const std::vector<std::string>& args, std::span<const CommandGroup> groups, Io& io) {
  // No command is a mistake (exit 2), but the usage it prints is the help text.
  if (args.empty()) {
    io.err << Usage();
    return kExitUsage;
  }
  const std::string& command = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (command == "help" || command == "--help" || command == "-h") {
    for (const CommandGroup& group : groups) io.out << group.usage();
    return kExitOk;
  }
  for (const CommandGroup& group : groups) {
    if (std::optional<int> code = group.run(command, rest, io)) return *code;
  }
  io.err << "boneyard: unknown command '" << command << "'\n"
         << "usage: boneyard games|simulate|match-bots|replay|play|help [flags] (see 'boneyard help')\n";
  return kExitUsage;
}

int RunProgram(int argc, char** argv, std::span<const CommandGroup> groups) {
  // Debian's Abseil checks every Mutex acquisition for lock-order cycles; the load tool and
  // simulate take many locks, and the clang -Wthread-safety build checks our locking instead.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  const std::vector<std::string> args(argv + 1, argv + argc);
  Io io{std::cin, std::cout, std::cerr, isatty(STDERR_FILENO) == 1, isatty(STDIN_FILENO) == 1};
  try {
    const int code = Dispatch(args, groups, io);
    std::cout.flush();
    return code;
  } catch (const std::exception& e) {
    std::cerr << "boneyard: internal error: " << e.what() << "\n";
    return kExitInternal;
  }
}

}  // namespace boneyard::cli
