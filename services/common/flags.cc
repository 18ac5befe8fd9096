#include "services/common/flags.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "absl/flags/flag.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "services/common/logging.h"
#include "services/common/server.h"

ABSL_FLAG(std::string, listen, "127.0.0.1:50051", "Address of the gRPC server (host:port).");
ABSL_FLAG(std::string, metrics_listen, "127.0.0.1:9464",
          "Address of the Prometheus /metrics page (numeric host:port); empty disables it.");
ABSL_FLAG(std::string, database_url, "",
          "PostgreSQL connection URL; if empty, the environment variable "
          "BONEYARD_DATABASE_URL.");
ABSL_FLAG(std::string, operator_token_file, "",
          "File holding the operator token; if empty, the environment variable "
          "BONEYARD_OPERATOR_TOKEN.");
ABSL_FLAG(int, db_pool_size, 8, "Number of PostgreSQL connections (1..256).");
ABSL_FLAG(std::string, log_level, "info", "trace, debug, info, warn, error or off.");
ABSL_FLAG(absl::Duration, shutdown_grace, absl::Seconds(10),
          "At shutdown, how long calls in flight may take to finish before they are cancelled.");
ABSL_FLAG(int, max_streams_per_connection, boneyard::kDefaultMaxStreamsPerConnection,
          "The most calls one client connection has open at once (HTTP/2 "
          "SETTINGS_MAX_CONCURRENT_STREAMS); the client's library holds further calls.");

ABSL_FLAG(bool, reuse_port, false,
          "Share --listen's port with other replicas of the service on this machine "
          "(SO_REUSEPORT): the kernel spreads new connections over them "
          "(deploy/local/up.sh --replicas). Off, a port in use is an error.");

namespace boneyard {
namespace {

std::string Getenv(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

}  // namespace

absl::StatusOr<std::string> ReadTokenFlag(absl::string_view flag, const std::string& path,
                                          const char* env_variable) {
  std::string token;
  std::string source;
  if (!path.empty()) {
    std::ifstream in(path);
    std::ostringstream contents;
    if (in) contents << in.rdbuf();
    if (!in || in.bad()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--", flag, ": cannot read \"", path, "\""));
    }
    token = std::string(absl::StripAsciiWhitespace(contents.str()));
    source = absl::StrCat("--", flag, " (\"", path, "\")");
  } else {
    token = Getenv(env_variable);
    source = absl::StrCat("--", flag, " (via ", env_variable, ")");
  }
  if (token.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--", flag, ": no token; give a file with the flag or set ", env_variable));
  }
  if (token.size() < static_cast<size_t>(kMinOperatorTokenLength)) {
    return absl::InvalidArgumentError(absl::StrCat(
        source, ": the token must have at least ", kMinOperatorTokenLength, " characters"));
  }
  for (char c : token) {
    if (absl::ascii_isspace(static_cast<unsigned char>(c)) ||
        absl::ascii_iscntrl(static_cast<unsigned char>(c))) {
      return absl::InvalidArgumentError(
          absl::StrCat(source, ": the token must not hold whitespace"));
    }
  }
  // A copy, not a move: GCC 12 warns (-Warray-bounds, a false positive) on moving it here.
  return std::string(token.data(), token.size());
}

absl::StatusOr<ServiceConfig> CommonConfigFromFlags() {
  ServiceConfig config;
  config.listen_address = absl::GetFlag(FLAGS_listen);
  if (config.listen_address.empty()) {
    return absl::InvalidArgumentError("--listen: empty address");
  }
  config.metrics_address = absl::GetFlag(FLAGS_metrics_listen);
  config.reuse_port = absl::GetFlag(FLAGS_reuse_port);

  config.database_url = absl::GetFlag(FLAGS_database_url);
  if (config.database_url.empty()) config.database_url = Getenv(kDatabaseUrlEnv);
  if (config.database_url.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--database_url: no database URL; give the flag or set ", kDatabaseUrlEnv));
  }

  absl::StatusOr<std::string> token =
      ReadTokenFlag("operator_token_file", absl::GetFlag(FLAGS_operator_token_file),
                    kOperatorTokenEnv);
  if (!token.ok()) return token.status();
  config.operator_token = *std::move(token);

  config.db_pool_size = absl::GetFlag(FLAGS_db_pool_size);
  if (config.db_pool_size < 1 || config.db_pool_size > kMaxDbPoolSize) {
    return absl::InvalidArgumentError(absl::StrCat("--db_pool_size: ", config.db_pool_size,
                                                   " is not in 1..", kMaxDbPoolSize));
  }

  config.log_level = absl::GetFlag(FLAGS_log_level);
  if (absl::Status level = ParseLogLevel(config.log_level).status(); !level.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--log_level: ", level.message()));
  }

  config.shutdown_grace = absl::GetFlag(FLAGS_shutdown_grace);
  if (config.shutdown_grace < absl::ZeroDuration() ||
      config.shutdown_grace == absl::InfiniteDuration()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--shutdown_grace: ", absl::FormatDuration(config.shutdown_grace),
                     " must be finite and not negative"));
  }

  config.max_streams_per_connection = absl::GetFlag(FLAGS_max_streams_per_connection);
  if (config.max_streams_per_connection < 1 ||
      config.max_streams_per_connection > kMaxStreamsPerConnection) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--max_streams_per_connection: ", config.max_streams_per_connection, " is not in 1..",
        kMaxStreamsPerConnection));
  }
  return config;
}

}  // namespace boneyard
