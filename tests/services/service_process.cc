#include "tests/services/service_process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "grpcpp/completion_queue.h"
#include "grpcpp/create_channel.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/security/credentials.h"
#include "grpcpp/support/byte_buffer.h"
#include "pqxx/pqxx"

namespace boneyard::testing {
namespace {

std::string RandomHex(int digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::random_device device;
  std::string out;
  for (int i = 0; i < digits; ++i) out.push_back(kHex[device() % 16]);
  return out;
}

std::string ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

std::string DescribeWaitStatus(int status) {
  if (WIFEXITED(status)) return absl::StrCat("exited with status ", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    return absl::StrCat("was killed by signal ", WTERMSIG(status), " (",
                        strsignal(WTERMSIG(status)), ")");
  }
  return absl::StrCat("ended with wait status ", status);
}

// The one field of grpc.health.v1.HealthCheckResponse: `status = 1` (enum, varint). An empty
// message is UNKNOWN (0).
int ParseHealthStatus(const std::string& bytes) {
  size_t i = 0;
  int status = 0;
  while (i < bytes.size()) {
    const uint8_t key = static_cast<uint8_t>(bytes[i++]);
    if (key != 0x08) return -1;  // not field 1 as a varint: not what we expect
    uint64_t value = 0;
    int shift = 0;
    while (i < bytes.size()) {
      const uint8_t b = static_cast<uint8_t>(bytes[i++]);
      value |= static_cast<uint64_t>(b & 0x7f) << shift;
      shift += 7;
      if ((b & 0x80) == 0) break;
    }
    status = static_cast<int>(value);
  }
  return status;
}

}  // namespace

// ----- TestDatabase ------------------------------------------------------------------------

std::string WithDatabaseName(const std::string& url, const std::string& name) {
  const size_t scheme = url.find("://");
  if (scheme == std::string::npos) {
    // key=value form: replace the value of dbname (a word or a 'quoted' string), or add it.
    std::vector<std::string> parts = absl::StrSplit(url, ' ', absl::SkipEmpty());
    bool replaced = false;
    for (size_t i = 0; i < parts.size(); ++i) {
      if (!absl::StartsWith(parts[i], "dbname=")) continue;
      std::string value = parts[i].substr(7);
      size_t last = i;
      if (absl::StartsWith(value, "'")) {
        while (!absl::EndsWith(parts[last], "'") && last + 1 < parts.size()) ++last;
      }
      parts.erase(parts.begin() + i + 1, parts.begin() + last + 1);
      parts[i] = "dbname=" + name;
      replaced = true;
      break;
    }
    if (!replaced) parts.push_back("dbname=" + name);
    return absl::StrJoin(parts, " ");
  }
  const size_t authority = scheme + 3;
  const size_t query = url.find('?', authority);
  const size_t path = url.find('/', authority);
  const size_t end = query == std::string::npos ? url.size() : query;
  if (path == std::string::npos || path > end) {
    return absl::StrCat(url.substr(0, end), "/", name, url.substr(end));
  }
  return absl::StrCat(url.substr(0, path + 1), name, url.substr(end));
}

absl::StatusOr<std::unique_ptr<TestDatabase>> TestDatabase::Create() {
  const char* admin = std::getenv(kTestDatabaseUrlVariable);
  if (admin == nullptr || *admin == '\0') {
    return absl::FailedPreconditionError(absl::StrCat(
        kTestDatabaseUrlVariable,
        " is not set: the service tests need a real PostgreSQL. tests/run.sh starts one; by "
        "hand:\n  deploy/local/pg.sh start /tmp/boneyard-pg 55432\n  export ",
        kTestDatabaseUrlVariable, "=$(deploy/local/pg.sh url /tmp/boneyard-pg 55432)"));
  }
  const std::string name = absl::StrCat("t_", RandomHex(16));
  try {
    pqxx::connection connection(admin);
    // CREATE DATABASE cannot run inside a transaction block.
    pqxx::nontransaction tx(connection);
    tx.exec0("CREATE DATABASE " + connection.quote_name(name));
  } catch (const std::exception& e) {
    return absl::UnavailableError(
        absl::StrCat("cannot create test database ", name, " on ", admin, ": ", e.what()));
  }
  return std::unique_ptr<TestDatabase>(new TestDatabase(admin, name, WithDatabaseName(admin, name)));
}

TestDatabase::~TestDatabase() {
  try {
    pqxx::connection connection(admin_url_);
    pqxx::nontransaction tx(connection);
    tx.exec0("DROP DATABASE IF EXISTS " + connection.quote_name(name_) + " WITH (FORCE)");
  } catch (const std::exception& e) {
    // A destructor cannot fail the test; say so where the test log shows it.
    fprintf(stderr, "TestDatabase: could not drop %s: %s\n", name_.c_str(), e.what());
  }
}

// ----- Helpers -----------------------------------------------------------------------------

absl::StatusOr<int> PickFreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return absl::InternalError(absl::StrCat("socket: ", std::strerror(errno)));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof(address);
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    const std::string error = std::strerror(errno);
    close(fd);
    return absl::InternalError(absl::StrCat("cannot find a free port: ", error));
  }
  close(fd);
  return ntohs(address.sin_port);
}

absl::StatusOr<bool> CheckServing(const std::string& target, absl::Duration deadline) {
  // Debian ships no generated health stub: call the method by name with hand-encoded bytes.
  // The request (HealthCheckRequest{service: ""}) is the empty message. A blocking probe needs
  // no callback machinery: the call goes through a completion queue of its own, drained and
  // shut down before the channel goes.
  std::shared_ptr<grpc::Channel> channel =
      grpc::CreateChannel(target, grpc::InsecureChannelCredentials());
  grpc::GenericStub stub(channel);
  grpc::ClientContext context;
  context.set_deadline(absl::ToChronoTime(absl::Now() + deadline));
  grpc::Slice empty;
  const grpc::ByteBuffer request(&empty, 1);
  grpc::CompletionQueue queue;
  std::unique_ptr<grpc::ClientAsyncResponseReader<grpc::ByteBuffer>> call =
      stub.PrepareUnaryCall(&context, "/grpc.health.v1.Health/Check", request, &queue);
  call->StartCall();
  grpc::ByteBuffer response;
  grpc::Status status;
  call->Finish(&response, &status, /*tag=*/&queue);
  void* tag = nullptr;
  bool ok = false;
  const bool got = queue.Next(&tag, &ok);  // the deadline bounds the wait
  queue.Shutdown();
  void* ignored_tag = nullptr;
  bool ignored_ok = false;
  while (queue.Next(&ignored_tag, &ignored_ok)) {
  }
  if (!got || !ok) return absl::InternalError("the health check call did not complete");
  if (!status.ok()) {
    return absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                        status.error_message());
  }
  std::vector<grpc::Slice> slices;
  if (!response.Dump(&slices).ok()) return absl::InternalError("unreadable health response");
  std::string bytes;
  for (const grpc::Slice& slice : slices) {
    bytes.append(reinterpret_cast<const char*>(slice.begin()), slice.size());
  }
  return ParseHealthStatus(bytes) == 1;  // SERVING
}

// ----- ServiceProcess ----------------------------------------------------------------------

absl::StatusOr<std::unique_ptr<ServiceProcess>> ServiceProcess::Start(
    std::string binary, std::vector<std::string> args, absl::Duration ready_timeout,
    int fixed_port) {
  std::unique_ptr<ServiceProcess> service(new ServiceProcess());
  service->binary_ = std::move(binary);
  service->args_ = std::move(args);

  std::string pattern =
      (std::filesystem::temp_directory_path() / "boneyard_service_XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    return absl::InternalError(absl::StrCat("mkdtemp ", pattern, ": ", std::strerror(errno)));
  }
  service->dir_ = pattern;
  service->log_path_ = service->dir_ + "/service.log";

  // A token file given in the arguments (replicas sharing one token) is used as it is.
  constexpr absl::string_view kTokenFlag = "--operator_token_file=";
  for (const std::string& arg : service->args_) {
    if (absl::StartsWith(arg, kTokenFlag)) {
      service->operator_token_file_ = arg.substr(kTokenFlag.size());
      std::ifstream file(service->operator_token_file_);
      std::getline(file, service->operator_token_);
      if (!file && service->operator_token_.empty()) {
        return absl::InternalError(absl::StrCat("cannot read ", service->operator_token_file_));
      }
      service->shared_token_ = true;
    }
  }
  if (!service->shared_token_) {
    service->operator_token_ = RandomHex(32);
    service->operator_token_file_ = service->dir_ + "/operator_token";
    std::ofstream file(service->operator_token_file_, std::ios::trunc);
    file << service->operator_token_ << "\n";
    if (!file) return absl::InternalError("cannot write the operator token file");
    chmod(service->operator_token_file_.c_str(), 0600);
  }

  absl::StatusOr<int> port = fixed_port != 0 ? absl::StatusOr<int>(fixed_port) : PickFreePort();
  if (!port.ok()) return port.status();
  absl::StatusOr<int> metrics_port = PickFreePort();
  if (!metrics_port.ok()) return metrics_port.status();
  for (int attempt = 0; *metrics_port == *port && attempt < 10; ++attempt) {
    metrics_port = PickFreePort();
    if (!metrics_port.ok()) return metrics_port.status();
  }
  service->port_ = *port;
  service->metrics_port_ = *metrics_port;

  if (absl::Status spawned = service->Spawn(); !spawned.ok()) return spawned;
  if (absl::Status ready = service->WaitUntilServing(ready_timeout); !ready.ok()) {
    service->Stop().IgnoreError();
    return ready;
  }
  return service;
}

ServiceProcess::~ServiceProcess() {
  if (running()) {
    if (absl::Status stopped = Stop(); !stopped.ok()) {
      fprintf(stderr, "ServiceProcess: %s\n", std::string(stopped.message()).c_str());
    }
  }
  std::error_code ignored;
  if (!dir_.empty()) std::filesystem::remove_all(dir_, ignored);
}

std::string ServiceProcess::target() const { return absl::StrCat("127.0.0.1:", port_); }

std::string ServiceProcess::metrics_url() const {
  return absl::StrCat("http://127.0.0.1:", metrics_port_, "/metrics");
}

std::string ServiceProcess::log() const { return ReadFile(log_path_); }

std::string ServiceProcess::LogTail() const {
  constexpr size_t kTail = 8000;
  const std::string text = log();
  if (text.size() <= kTail) return text;
  return "...\n" + text.substr(text.size() - kTail);
}

absl::Status ServiceProcess::Spawn() {
  // Everything the child needs is prepared before fork: after it, only async-signal-safe calls.
  std::vector<std::string> argv_strings = {binary_};
  argv_strings.insert(argv_strings.end(), args_.begin(), args_.end());
  argv_strings.push_back(absl::StrCat("--listen=127.0.0.1:", port_));
  argv_strings.push_back(absl::StrCat("--metrics_listen=127.0.0.1:", metrics_port_));
  if (!shared_token_) {
    argv_strings.push_back(absl::StrCat("--operator_token_file=", operator_token_file_));
  }
  std::vector<char*> argv;
  for (std::string& arg : argv_strings) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const std::string exec_failed = absl::StrCat("ServiceProcess: cannot execute ", binary_, "\n");
  {
    std::ofstream log(log_path_, std::ios::app);
    log << "==== ServiceProcess: starting";
    for (const std::string& arg : argv_strings) log << " " << arg;
    log << "\n";
  }

  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) return absl::InternalError(absl::StrCat("fork: ", std::strerror(errno)));
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // the parent is already gone
    const int in = open("/dev/null", O_RDONLY);
    const int out = open(log_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (in < 0 || out < 0) _exit(127);
    dup2(in, STDIN_FILENO);
    dup2(out, STDOUT_FILENO);
    dup2(out, STDERR_FILENO);
    execv(argv[0], argv.data());
    const ssize_t ignored = write(STDERR_FILENO, exec_failed.data(), exec_failed.size());
    (void)ignored;
    _exit(127);
  }
  pid_ = pid;
  return absl::OkStatus();
}

absl::Status ServiceProcess::WaitUntilServing(absl::Duration timeout) {
  const absl::Time give_up = absl::Now() + timeout;
  absl::Status last = absl::UnavailableError("not asked yet");
  while (true) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = 0;
      last_wait_status_ = status;
      return absl::FailedPreconditionError(
          absl::StrCat(binary_, " ", DescribeWaitStatus(status), " while starting; its log:\n",
                       LogTail()));
    }
    absl::StatusOr<bool> serving = CheckServing(target(), absl::Seconds(1));
    if (serving.ok() && *serving) return absl::OkStatus();
    last = serving.ok() ? absl::UnavailableError("health check answers NOT_SERVING")
                        : serving.status();
    if (absl::Now() > give_up) {
      return absl::DeadlineExceededError(
          absl::StrCat(binary_, " was not SERVING at ", target(), " after ",
                       absl::FormatDuration(timeout), " (last: ", last.ToString(),
                       "); its log:\n", LogTail()));
    }
    absl::SleepFor(absl::Milliseconds(50));
  }
}

bool ServiceProcess::WaitForExit(absl::Duration timeout) {
  const absl::Time give_up = absl::Now() + timeout;
  while (true) {
    int status = 0;
    const pid_t done = waitpid(pid_, &status, WNOHANG);
    if (done == pid_ || (done < 0 && errno == ECHILD)) {
      last_wait_status_ = status;
      pid_ = 0;
      return true;
    }
    if (absl::Now() > give_up) return false;
    absl::SleepFor(absl::Milliseconds(10));
  }
}

absl::Status ServiceProcess::Kill(int signal) {
  if (!running()) return absl::FailedPreconditionError("the service is not running");
  kill(pid_, signal);  // our child, by its pid
  if (!WaitForExit(kStopGrace)) {
    kill(pid_, SIGKILL);
    WaitForExit(absl::InfiniteDuration());
    return absl::DeadlineExceededError(
        absl::StrCat("the service did not exit within ", absl::FormatDuration(kStopGrace),
                     " of signal ", signal, "; it was killed"));
  }
  return absl::OkStatus();
}

absl::Status ServiceProcess::Stop() {
  if (!running()) return absl::OkStatus();
  if (absl::Status killed = Kill(SIGTERM); !killed.ok()) {
    return absl::DeadlineExceededError(absl::StrCat(killed.message(), "; its log:\n", LogTail()));
  }
  if (last_wait_status_.has_value() && WIFEXITED(*last_wait_status_) &&
      WEXITSTATUS(*last_wait_status_) == 0) {
    return absl::OkStatus();
  }
  return absl::InternalError(absl::StrCat("on SIGTERM the service ",
                                          DescribeWaitStatus(last_wait_status_.value_or(-1)),
                                          "; its log:\n", LogTail()));
}

absl::Status ServiceProcess::Restart(absl::Duration ready_timeout) {
  if (running()) {
    if (absl::Status stopped = Stop(); !stopped.ok()) return stopped;
  }
  if (absl::Status spawned = Spawn(); !spawned.ok()) return spawned;
  return WaitUntilServing(ready_timeout);
}

absl::StatusOr<ServiceOnNewDatabase> StartOnNewDatabase(std::string binary,
                                                        std::vector<std::string> args) {
  ServiceOnNewDatabase started;
  absl::StatusOr<std::unique_ptr<TestDatabase>> database = TestDatabase::Create();
  if (!database.ok()) return database.status();
  started.database = *std::move(database);
  args.insert(args.begin(), {"--database_url=" + started.database->url(), "--log_level=info"});
  absl::StatusOr<std::unique_ptr<ServiceProcess>> service =
      ServiceProcess::Start(std::move(binary), std::move(args));
  if (!service.ok()) return service.status();
  started.service = *std::move(service);
  return started;
}

}  // namespace boneyard::testing
