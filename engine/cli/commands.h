// The boneyard subcommands. Each takes the words after its name and the streams to use, and
// returns the process exit code, so main() only dispatches and every command can be driven
// with string streams. Exit codes (docs/cli.md):
//   0  success
//   1  internal error (a bug: a bot chose an illegal move, an exception escaped)
//   2  bad command line (unknown command or flag, missing or invalid value, unknown game, bot
//      or rule option); the message names it and a one-line usage hint follows
//   3  bad input data (unreadable or unwritable file, malformed record, an action the referee
//      rejects)
// Every error goes to `err` as "boneyard: <message>".
#ifndef BONEYARD_ENGINE_CLI_COMMANDS_H_
#define BONEYARD_ENGINE_CLI_COMMANDS_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace boneyard::cli {

enum ExitCode : int {
  kExitOk = 0,
  kExitInternal = 1,
  kExitUsage = 2,
  kExitBadInput = 3,
};

struct Io {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
  // Progress bars are drawn only for a person watching, never into a pipe or a log.
  bool err_is_tty = false;
  // Piped answers to `play` are echoed after the prompt so its transcript reads like a session.
  bool in_is_tty = false;
};

int RunGames(const std::vector<std::string>& args, Io& io);
int RunSimulate(const std::vector<std::string>& args, Io& io);
int RunMatchBots(const std::vector<std::string>& args, Io& io);
int RunReplay(const std::vector<std::string>& args, Io& io);
int RunPlay(const std::vector<std::string>& args, Io& io);

// The usage text listing every command (for "boneyard help").
std::string Usage();

}  // namespace boneyard::cli

#endif  // BONEYARD_ENGINE_CLI_COMMANDS_H_
