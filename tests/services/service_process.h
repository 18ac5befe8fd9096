// The harness the service tests share: a fresh PostgreSQL database per test (TestDatabase) and a
// service binary running as a child process on free loopback ports (ServiceProcess), which a
// test can kill, restart and stop like an operator would.
//
//   absl::StatusOr<std::unique_ptr<TestDatabase>> db = TestDatabase::Create();
//   ASSERT_TRUE(db.ok()) << db.status();
//   absl::StatusOr<std::unique_ptr<ServiceProcess>> service = ServiceProcess::Start(
//       BONEYARD_EXECUTION_BINARY, {"--database_url=" + (*db)->url(), "--log_level=debug"});
//   ASSERT_TRUE(service.ok()) << service.status();
//   auto channel = grpc::CreateChannel((*service)->target(), grpc::InsecureChannelCredentials());
//   ...
//   ASSERT_TRUE((*service)->Kill(SIGKILL).ok());     // a crash
//   ASSERT_TRUE((*service)->Restart().ok()) << (*service)->log();
//
// Both clean up in their destructors: the service is stopped (SIGTERM, then SIGKILL after 15 s)
// and the database dropped (WITH (FORCE), so connections left open do not stop it).
// The child gets PR_SET_PDEATHSIG(SIGKILL): if the test process dies, so does the service
// (strictly, when the thread that started it ends; start services from the test's thread).
#ifndef BONEYARD_TESTS_SERVICES_SERVICE_PROCESS_H_
#define BONEYARD_TESTS_SERVICES_SERVICE_PROCESS_H_

#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace boneyard::testing {

// The environment variable naming the PostgreSQL server for tests (tests/run.sh sets it).
inline constexpr char kTestDatabaseUrlVariable[] = "BONEYARD_TEST_DATABASE_URL";

// A database of its own (t_<16 hex digits>) on the server named by
// $BONEYARD_TEST_DATABASE_URL, created empty and dropped when the object goes.
class TestDatabase {
 public:
  // FAILED_PRECONDITION when the variable is unset; UNAVAILABLE when the server cannot be
  // reached or refuses CREATE DATABASE.
  static absl::StatusOr<std::unique_ptr<TestDatabase>> Create();
  ~TestDatabase();

  TestDatabase(const TestDatabase&) = delete;
  TestDatabase& operator=(const TestDatabase&) = delete;

  // The new database's URL: the server's URL with the database name replaced.
  const std::string& url() const { return url_; }
  const std::string& name() const { return name_; }

 private:
  TestDatabase(std::string admin_url, std::string name, std::string url)
      : admin_url_(std::move(admin_url)), name_(std::move(name)), url_(std::move(url)) {}

  std::string admin_url_;
  std::string name_;
  std::string url_;
};

// `url` (a postgresql:// URL or a key=value connection string) naming database `name` instead.
std::string WithDatabaseName(const std::string& url, const std::string& name);

// A free TCP port on 127.0.0.1 (bound and released; another process could take it meanwhile,
// which on loopback in a test run is rare enough).
absl::StatusOr<int> PickFreePort();

// Asks the gRPC health service at `target` (grpc.health.v1.Health/Check, service "") once.
// True for SERVING; false for any other answer; the call's error when it fails.
absl::StatusOr<bool> CheckServing(const std::string& target, absl::Duration deadline);

class ServiceProcess {
 public:
  static constexpr absl::Duration kDefaultReadyTimeout = absl::Seconds(60);
  static constexpr absl::Duration kStopGrace = absl::Seconds(15);

  // Starts `binary` with `args` plus --listen=127.0.0.1:P, --metrics_listen=127.0.0.1:M (two
  // free ports) and --operator_token_file=F (a fresh random 32-character token, unless `args`
  // name a token file already: several replicas sharing one), its standard
  // output and error appended to a log file in a temporary folder, and waits until its health
  // check answers SERVING. An error (with the log) when it exits or is not ready within
  // `ready_timeout`; the process is then stopped.
  // `port`, when not 0, is the gRPC port to listen on (one picked before, so that another
  // process could be told it first).
  static absl::StatusOr<std::unique_ptr<ServiceProcess>> Start(
      std::string binary, std::vector<std::string> args,
      absl::Duration ready_timeout = kDefaultReadyTimeout, int port = 0);

  // Stops the process if it runs and removes the temporary folder.
  ~ServiceProcess();

  ServiceProcess(const ServiceProcess&) = delete;
  ServiceProcess& operator=(const ServiceProcess&) = delete;

  // Sends `signal` (one that ends the process: SIGKILL for a crash, SIGTERM, SIGINT) and waits
  // for the process to exit; after kStopGrace it is killed with SIGKILL. FAILED_PRECONDITION
  // when it is not running.
  absl::Status Kill(int signal);
  // SIGTERM and wait, SIGKILL after kStopGrace. OK when the process exited with status 0 (or
  // was not running); otherwise an error saying how it ended, with the log's tail.
  absl::Status Stop();
  // Starts the binary again with the same arguments, ports and operator token (stopping it
  // first if it still runs) and waits until it is SERVING.
  absl::Status Restart(absl::Duration ready_timeout = kDefaultReadyTimeout);

  bool running() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }
  // How the last run ended (waitpid status), once it has.
  std::optional<int> last_wait_status() const { return last_wait_status_; }

  // "127.0.0.1:<port>".
  std::string target() const;
  int port() const { return port_; }
  int metrics_port() const { return metrics_port_; }
  // "http://127.0.0.1:<metrics port>/metrics".
  std::string metrics_url() const;
  const std::string& operator_token() const { return operator_token_; }
  const std::string& operator_token_file() const { return operator_token_file_; }
  // The temporary folder (log, token file); removed with the object.
  const std::string& dir() const { return dir_; }
  // Everything the process (every run of it) wrote to stdout and stderr.
  std::string log() const;

 private:
  ServiceProcess() = default;

  absl::Status Spawn();
  absl::Status WaitUntilServing(absl::Duration timeout);
  // Waits up to `timeout` for the process to exit; true when it has (and is reaped).
  bool WaitForExit(absl::Duration timeout);
  std::string LogTail() const;

  std::string binary_;
  std::vector<std::string> args_;  // as given, without the added flags
  std::string dir_;
  std::string log_path_;
  std::string operator_token_;
  bool shared_token_ = false;  // the token file came with the arguments
  std::string operator_token_file_;
  int port_ = 0;
  int metrics_port_ = 0;
  pid_t pid_ = 0;
  std::optional<int> last_wait_status_;
};

// A service on a database of its own: what most service tests start with. Members go in
// reverse order, so the service stops before its database is dropped.
struct ServiceOnNewDatabase {
  std::unique_ptr<TestDatabase> database;
  std::unique_ptr<ServiceProcess> service;
};

// Creates a database and starts `binary` on it with --database_url, --log_level=info and `args`.
absl::StatusOr<ServiceOnNewDatabase> StartOnNewDatabase(std::string binary,
                                                        std::vector<std::string> args = {});

}  // namespace boneyard::testing

#endif  // BONEYARD_TESTS_SERVICES_SERVICE_PROCESS_H_
