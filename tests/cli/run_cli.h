// Runs the real build/bin/boneyard as a child process for the CLI tests: standard input comes
// from a string (so it is always bounded and ends), standard output and error are captured
// through temporary files (so a large output cannot block the child), and a child that runs
// past a deadline is killed, so a hang fails one test instead of stalling the suite.
#ifndef BONEYARD_TESTS_CLI_RUN_CLI_H_
#define BONEYARD_TESTS_CLI_RUN_CLI_H_

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

extern char** environ;

namespace boneyard::testing {

struct CliResult {
  int exit_code = -1;  // 128 + signal when the child was killed or crashed
  std::string out;
  std::string err;
};

inline std::string ReadWholeFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

inline void WriteWholeFile(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
}

// The directories MakeTempDir made, removed when the test program exits (ctest runs each test
// in a process of its own), so a test run leaves nothing behind in /tmp.
class CreatedTempDirs {
 public:
  static void Add(std::string dir) {
    CreatedTempDirs& self = Get();
    std::lock_guard<std::mutex> lock(self.mu_);
    self.dirs_.push_back(std::move(dir));
  }
  ~CreatedTempDirs() {
    std::error_code ignored;
    for (const std::string& dir : dirs_) std::filesystem::remove_all(dir, ignored);
  }

 private:
  static CreatedTempDirs& Get() {
    static CreatedTempDirs dirs;
    return dirs;
  }
  std::mutex mu_;
  std::vector<std::string> dirs_;
};

// A fresh directory under the test temp dir, unique across processes (ctest runs tests in
// parallel), removed when the test program exits.
inline std::string MakeTempDir() {
  std::string pattern = (std::filesystem::path(::testing::TempDir()) / "boneyard_cli_XXXXXX").string();
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (mkdtemp(buffer.data()) == nullptr) {
    ADD_FAILURE() << "mkdtemp failed for " << pattern;
    return ::testing::TempDir();
  }
  CreatedTempDirs::Add(buffer.data());
  return buffer.data();
}

// Runs `program` with `args`, as RunCli runs boneyard.
inline CliResult RunProgram(const std::string& program, const std::vector<std::string>& args,
                            const std::string& input = "",
                            std::chrono::seconds deadline = std::chrono::seconds(120)) {
  const std::string dir = MakeTempDir();
  const std::string in_path = dir + "/stdin";
  const std::string out_path = dir + "/stdout";
  const std::string err_path = dir + "/stderr";
  WriteWholeFile(in_path, input);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, in_path.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);

  std::vector<std::string> argv_strings = {program};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_strings) argv.push_back(a.data());
  argv.push_back(nullptr);

  CliResult result;
  pid_t pid = 0;
  const int spawn_error =
      posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawn_error != 0) {
    ADD_FAILURE() << "cannot start " << program << ": error " << spawn_error;
    return result;
  }

  int status = 0;
  const auto give_up = std::chrono::steady_clock::now() + deadline;
  while (true) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0) {
      ADD_FAILURE() << "waitpid failed";
      return result;
    }
    if (std::chrono::steady_clock::now() > give_up) {
      kill(pid, SIGKILL);  // the child we started, by its pid
      waitpid(pid, &status, 0);
      ADD_FAILURE() << program << " did not finish within " << deadline.count() << " s";
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.exit_code = 128 + WTERMSIG(status);
  }
  result.out = ReadWholeFile(out_path);
  result.err = ReadWholeFile(err_path);
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
  return result;
}

inline CliResult RunCli(const std::vector<std::string>& args, const std::string& input = "",
                        std::chrono::seconds deadline = std::chrono::seconds(120)) {
  return RunProgram(BONEYARD_CLI, args, input, deadline);
}

inline std::string TestData(const std::string& name) {
  // Appended, not `std::string(...) + "/" + name`: GCC 12 gives a false -Warray-bounds there.
  std::string path = BONEYARD_TESTDATA;
  path += '/';
  path += name;
  return path;
}

// For failure messages: the whole exchange.
inline std::string Describe(const CliResult& r) {
  std::ostringstream s;
  s << "exit " << r.exit_code << "\n--- stdout ---\n" << r.out << "\n--- stderr ---\n" << r.err;
  return s.str();
}

}  // namespace boneyard::testing

#endif  // BONEYARD_TESTS_CLI_RUN_CLI_H_
