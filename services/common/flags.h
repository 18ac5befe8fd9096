// The flags every service shares, and the one function that reads them. Only main reads
// flags; everything else is given the plain values of ServiceConfig:
//
//   absl::ParseCommandLine(argc, argv);
//   absl::StatusOr<ServiceConfig> config = CommonConfigFromFlags();
//   if (!config.ok()) { std::cerr << config.status() << "\n"; return 2; }
//
//   --listen               gRPC address                         127.0.0.1:50051
//   --metrics_listen       /metrics address; empty disables it  127.0.0.1:9464
//   --database_url         PostgreSQL URL             (else env BONEYARD_DATABASE_URL)
//   --operator_token_file  file holding the operator token (else env BONEYARD_OPERATOR_TOKEN)
//   --db_pool_size         PostgreSQL connections               8
//   --log_level            trace, debug, info, warn, error, off info
//   --shutdown_grace       time calls in flight get at shutdown 10s
//   --max_streams_per_connection  calls one connection has open   4096
//   --reuse_port           share --listen's port with replicas   false
#ifndef BONEYARD_SERVICES_COMMON_FLAGS_H_
#define BONEYARD_SERVICES_COMMON_FLAGS_H_

#include <string>

#include "absl/flags/declare.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

ABSL_DECLARE_FLAG(std::string, listen);
ABSL_DECLARE_FLAG(std::string, metrics_listen);
ABSL_DECLARE_FLAG(bool, reuse_port);
ABSL_DECLARE_FLAG(std::string, database_url);
ABSL_DECLARE_FLAG(std::string, operator_token_file);
ABSL_DECLARE_FLAG(int, db_pool_size);
ABSL_DECLARE_FLAG(std::string, log_level);
ABSL_DECLARE_FLAG(absl::Duration, shutdown_grace);
ABSL_DECLARE_FLAG(int, max_streams_per_connection);

namespace boneyard {

inline constexpr char kDatabaseUrlEnv[] = "BONEYARD_DATABASE_URL";
inline constexpr char kOperatorTokenEnv[] = "BONEYARD_OPERATOR_TOKEN";
// The token the execution service presents to the ratings service when it delivers results;
// both read it from --results_token_file or this variable.
inline constexpr char kResultsTokenEnv[] = "BONEYARD_RESULTS_TOKEN";
inline constexpr int kMaxDbPoolSize = 256;
inline constexpr int kMaxStreamsPerConnection = 1'000'000;
inline constexpr int kMinOperatorTokenLength = 16;

struct ServiceConfig {
  std::string listen_address;
  std::string metrics_address;  // empty: no /metrics page
  std::string database_url;
  std::string operator_token;
  int db_pool_size = 8;
  std::string log_level = "info";
  absl::Duration shutdown_grace = absl::Seconds(10);
  int max_streams_per_connection = 4096;
  bool reuse_port = false;
};

// Reads the shared flags (and their environment fallbacks) into a ServiceConfig. The operator
// token file's content is the token, without surrounding whitespace. INVALID_ARGUMENT, naming
// the flag, when: --listen is empty; the database URL is missing; the operator token is
// missing, unreadable, shorter than 16 characters or holds whitespace; --db_pool_size is not
// in 1..256; --log_level is unknown; --shutdown_grace is negative or infinite;
// --max_streams_per_connection is not in 1..1000000.
absl::StatusOr<ServiceConfig> CommonConfigFromFlags();

// A secret token given as a file flag (`--<flag>=PATH`, the file's content without surrounding
// whitespace) or, when `path` is empty, the environment variable `env_variable`. For the
// operator token and for services' own token flags (e.g. the ratings service's
// --results_token_file). INVALID_ARGUMENT naming the flag when the file cannot be read, or the
// token is missing, shorter than 16 characters or holds whitespace.
absl::StatusOr<std::string> ReadTokenFlag(absl::string_view flag, const std::string& path,
                                          const char* env_variable);

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_FLAGS_H_
