#include "services/common/logging.h"

#include <google/protobuf/stubs/logging.h>
#include <grpc/support/log.h>

#include <chrono>
#include <cstdio>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "spdlog/details/log_msg.h"
#include "spdlog/sinks/stdout_sinks.h"
#include "spdlog/spdlog.h"

namespace boneyard {
namespace {

bool NeedsQuotes(absl::string_view value) {
  if (value.empty()) return true;
  for (char c : value) {
    const auto u = static_cast<unsigned char>(c);
    if (c == ' ' || c == '=' || c == '"' || c == '\\' || u < 0x20 || u == 0x7f) return true;
  }
  return false;
}

void AppendQuoted(absl::string_view value, std::string& out) {
  out.push_back('"');
  for (char c : value) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (u < 0x20 || u == 0x7f) {
          char escaped[5];
          std::snprintf(escaped, sizeof escaped, "\\x%02x", u);
          out += escaped;
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
}

absl::string_view LevelName(spdlog::level::level_enum level) {
  switch (level) {
    case spdlog::level::trace: return "trace";
    case spdlog::level::debug: return "debug";
    case spdlog::level::info: return "info";
    case spdlog::level::warn: return "warn";
    case spdlog::level::err: return "error";
    case spdlog::level::critical: return "critical";
    default: return "off";
  }
}

class LogfmtFormatter : public spdlog::formatter {
 public:
  explicit LogfmtFormatter(std::string service) : service_(std::move(service)) {}

  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    std::string line = "ts=";
    line += absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", absl::FromChrono(msg.time),
                             absl::UTCTimeZone());
    line += " level=";
    absl::StrAppend(&line, LevelName(msg.level));
    line += " service=";
    line += LogfmtValue(service_);

    absl::string_view payload(msg.payload.data(), msg.payload.size());
    absl::string_view text = payload;
    absl::string_view fields;
    if (size_t marker = payload.find(kLogFieldsMarker); marker != absl::string_view::npos) {
      text = payload.substr(0, marker);
      fields = payload.substr(marker);
    }
    line += " msg=";
    AppendQuoted(absl::StripTrailingAsciiWhitespace(text), line);
    for (char c : fields) {
      if (c != kLogFieldsMarker) line.push_back(c);
    }
    line += '\n';
    dest.append(line.data(), line.data() + line.size());
  }

  std::unique_ptr<spdlog::formatter> clone() const override {
    return std::make_unique<LogfmtFormatter>(service_);
  }

 private:
  const std::string service_;
};

// gRPC's own log lines, into the default logger.
void LogGrpcMessage(gpr_log_func_args* args) {
  spdlog::level::level_enum level = spdlog::level::info;
  if (args->severity == GPR_LOG_SEVERITY_DEBUG) level = spdlog::level::debug;
  if (args->severity == GPR_LOG_SEVERITY_ERROR) level = spdlog::level::err;
  spdlog::log(level, "{} {}", args->message == nullptr ? "" : args->message,
              Fields()
                  .Add("component", "grpc")
                  .Add("source", absl::StrCat(args->file == nullptr ? "" : args->file, ":",
                                              args->line)));
}

}  // namespace

void LogStartupFailure(absl::string_view program, absl::string_view what,
                       const absl::Status& status) {
  if (spdlog::default_logger()->should_log(spdlog::level::err)) {
    spdlog::error("{} {}", std::string(what), Fields().Add("error", status));
  } else {
    std::fprintf(stderr, "%s: %s: %s\n", std::string(program).c_str(),
                 std::string(what).c_str(), status.ToString().c_str());
  }
}

std::string LogfmtValue(absl::string_view value) {
  if (!NeedsQuotes(value)) return std::string(value);
  std::string quoted;
  AppendQuoted(value, quoted);
  return quoted;
}

LogFields& LogFields::Add(absl::string_view key, absl::string_view value) {
  absl::StrAppend(&text_, " ", key, "=", LogfmtValue(value));
  return *this;
}

absl::StatusOr<spdlog::level::level_enum> ParseLogLevel(absl::string_view level) {
  static constexpr std::pair<absl::string_view, spdlog::level::level_enum> kLevels[] = {
      {"trace", spdlog::level::trace}, {"debug", spdlog::level::debug},
      {"info", spdlog::level::info},   {"warn", spdlog::level::warn},
      {"error", spdlog::level::err},   {"off", spdlog::level::off},
  };
  for (const auto& [name, value] : kLevels) {
    if (absl::EqualsIgnoreCase(level, name)) return value;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown log level \"", level, "\": use trace, debug, info, warn, error or off"));
}

std::unique_ptr<spdlog::formatter> NewLogfmtFormatter(absl::string_view service) {
  return std::make_unique<LogfmtFormatter>(std::string(service));
}

bool LogRateLimiter::Admit(absl::Time now, int64_t& suppressed) {
  if (now - window_start_ >= window_) {
    window_start_ = now;
    admitted_ = 0;
  }
  if (admitted_ >= limit_) {
    ++suppressed_;
    return false;
  }
  ++admitted_;
  suppressed = suppressed_;
  suppressed_ = 0;
  return true;
}

namespace {

// protobuf's log lines, at most 10 a minute (each malformed request can cause one).
void LogProtobufMessage(google::protobuf::LogLevel level, const char* filename, int line,
                        const std::string& message) {
  static absl::Mutex mu(absl::kConstInit);
  static LogRateLimiter* limiter = new LogRateLimiter(10, absl::Minutes(1));
  int64_t suppressed = 0;
  {
    absl::MutexLock lock(&mu);
    if (!limiter->Admit(absl::Now(), suppressed)) return;
  }
  const LogFields fields = LogFields()
                               .Add("file", filename == nullptr ? "" : filename)
                               .Add("line", line)
                               .Add("suppressed", suppressed);
  if (level >= google::protobuf::LOGLEVEL_ERROR) {
    spdlog::warn("protobuf: {} {}", message, fields);
  } else {
    spdlog::info("protobuf: {} {}", message, fields);
  }
}

}  // namespace

absl::Status InitLogging(absl::string_view service, absl::string_view level) {
  absl::StatusOr<spdlog::level::level_enum> parsed = ParseLogLevel(level);
  if (!parsed.ok()) return parsed.status();
  auto logger = std::make_shared<spdlog::logger>(
      std::string(service), std::make_shared<spdlog::sinks::stderr_sink_mt>());
  logger->set_formatter(NewLogfmtFormatter(service));
  logger->set_level(*parsed);
  spdlog::set_default_logger(std::move(logger));
  gpr_set_log_function(&LogGrpcMessage);
  google::protobuf::SetLogHandler(&LogProtobufMessage);
  return absl::OkStatus();
}

}  // namespace boneyard
