// The boneyard command-line tool: dispatches to a subcommand (engine/cli/commands.h), which
// does the work against the given streams and returns the exit code.
#include <unistd.h>

#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "engine/cli/commands.h"
#ifdef BONEYARD_WITH_CLIENT
// The service commands (create, watch, ...): linked in when the services are built.
#include "services/client/client_commands.h"
#endif

namespace {

using boneyard::cli::Io;

int Dispatch(const std::vector<std::string>& args, Io& io) {
  using namespace boneyard::cli;
  // No command is a mistake (exit 2), but the usage it prints is the help text.
  if (args.empty()) {
    io.err << Usage();
    return kExitUsage;
  }
  const std::string& command = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (command == "help" || command == "--help" || command == "-h") {
    io.out << Usage();
#ifdef BONEYARD_WITH_CLIENT
    io.out << boneyard::client::ClientUsage();
#endif
    return kExitOk;
  }
  if (command == "games") return RunGames(rest, io);
  if (command == "simulate") return RunSimulate(rest, io);
  if (command == "replay") return RunReplay(rest, io);
  if (command == "play") return RunPlay(rest, io);
#ifdef BONEYARD_WITH_CLIENT
  if (std::optional<int> code = boneyard::client::RunClientCommand(command, rest, io)) {
    return *code;
  }
#endif
  io.err << "boneyard: unknown command '" << command << "'\n"
         << "usage: boneyard games|simulate|replay|play|help [flags] (see 'boneyard help')\n";
  return kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  // Debian's Abseil checks every Mutex acquisition for lock-order cycles; the load tool and
  // simulate take many locks, and the clang -Wthread-safety build checks our locking instead.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  std::vector<std::string> args(argv + 1, argv + argc);
  Io io{std::cin, std::cout, std::cerr, isatty(STDERR_FILENO) == 1, isatty(STDIN_FILENO) == 1};
  try {
    const int code = Dispatch(args, io);
    std::cout.flush();
    return code;
  } catch (const std::exception& e) {
    std::cerr << "boneyard: internal error: " << e.what() << "\n";
    return boneyard::cli::kExitInternal;
  }
}
