#include "services/common/auth.h"

#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"

namespace boneyard {
namespace {

constexpr absl::string_view kAuthorizationHeader = "authorization";
constexpr absl::string_view kBearerScheme = "bearer";
constexpr std::size_t kSecretBytes = 32;

[[noreturn]] void DieWithoutRandomness(const char* what) {
  std::fprintf(stderr, "boneyard: cannot read random bytes for a secret token (%s)\n", what);
  std::abort();
}

// Fills `buffer` from the kernel's CSPRNG.
void FillRandom(unsigned char* buffer, std::size_t size) {
  std::size_t filled = 0;
  while (filled < size) {
    ssize_t n = getrandom(buffer + filled, size - filled, 0);
    if (n > 0) {
      filled += static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && errno == ENOSYS) {
      break;  // a kernel older than 3.17: read /dev/urandom instead
    } else {
      DieWithoutRandomness("getrandom failed");
    }
  }
  if (filled == size) return;

  int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd < 0) DieWithoutRandomness("cannot open /dev/urandom");
  while (filled < size) {
    ssize_t n = read(fd, buffer + filled, size - filled);
    if (n > 0) {
      filled += static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      close(fd);
      DieWithoutRandomness("cannot read /dev/urandom");
    }
  }
  close(fd);
}

}  // namespace

std::optional<std::string> ParseBearerHeader(absl::string_view header_value) {
  if (header_value.size() <= kBearerScheme.size() ||
      !absl::EqualsIgnoreCase(header_value.substr(0, kBearerScheme.size()), kBearerScheme) ||
      header_value[kBearerScheme.size()] != ' ') {
    return std::nullopt;
  }
  absl::string_view token = header_value.substr(kBearerScheme.size());
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  if (token.empty()) return std::nullopt;
  for (char c : token) {
    if (absl::ascii_isspace(static_cast<unsigned char>(c)) ||
        absl::ascii_iscntrl(static_cast<unsigned char>(c))) {
      return std::nullopt;
    }
  }
  return std::string(token);
}

std::optional<std::string> BearerToken(const grpc::ServerContextBase& ctx) {
  const auto& metadata = ctx.client_metadata();
  auto [first, last] = metadata.equal_range(
      grpc::string_ref(kAuthorizationHeader.data(), kAuthorizationHeader.size()));
  if (first == last || std::next(first) != last) return std::nullopt;
  return ParseBearerHeader(absl::string_view(first->second.data(), first->second.size()));
}

bool TokensEqual(absl::string_view a, absl::string_view b) {
  // Walk all of `a` whatever happens; a length difference alone makes them unequal.
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const unsigned char other = b.empty() ? 0 : static_cast<unsigned char>(b[i % b.size()]);
    diff |= static_cast<unsigned char>(static_cast<unsigned char>(a[i]) ^ other);
  }
  return diff == 0;
}

std::string NewSecretToken() {
  unsigned char bytes[kSecretBytes];
  FillRandom(bytes, sizeof bytes);
  std::string token =
      absl::WebSafeBase64Escape(absl::string_view(reinterpret_cast<const char*>(bytes),
                                                  sizeof bytes));
  return token;
}

Authenticator::Authenticator(AuthConfig config) : config_(std::move(config)) {}

Authenticator::Role Authenticator::Classify(const std::optional<std::string>& token) const {
  if (!token.has_value()) return Role::kNone;
  // Compare against every configured token, so the time taken says nothing about which (if
  // any) matched.
  bool is_operator =
      !config_.operator_token.empty() && TokensEqual(*token, config_.operator_token);
  bool is_service = false;
  for (const std::string& service_token : config_.service_tokens) {
    is_service |= !service_token.empty() && TokensEqual(*token, service_token);
  }
  if (is_operator) return Role::kOperator;
  if (is_service) return Role::kService;
  return Role::kOther;
}

absl::Status Authenticator::RequireOperator(const std::optional<std::string>& token,
                                            bool token_known_elsewhere) const {
  switch (Classify(token)) {
    case Role::kOperator:
      return absl::OkStatus();
    case Role::kNone:
      return absl::UnauthenticatedError("missing bearer token");
    case Role::kService:
      return absl::PermissionDeniedError("this call needs the operator token");
    case Role::kOther:
      break;
  }
  if (token_known_elsewhere) {
    return absl::PermissionDeniedError("this call needs the operator token");
  }
  return absl::UnauthenticatedError("unknown token");
}

}  // namespace boneyard
