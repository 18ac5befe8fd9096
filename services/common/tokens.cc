#include "services/common/tokens.h"

#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "absl/strings/escaping.h"

namespace boneyard {
namespace {

constexpr std::size_t kSecretBytes = 32;

[[noreturn]] void DieWithoutRandomness(const char* what) {
  std::fprintf(stderr, "boneyard: cannot read random bytes for a secret token (%s)\n", what);
  std::abort();
}

// Fills `buffer` from the kernel's CSPRNG.
void FillRandom(char* buffer, std::size_t size) {
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

std::string RandomBytes(std::size_t count) {
  std::string bytes(count, '\0');
  FillRandom(bytes.data(), bytes.size());
  return bytes;
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
  // Never a leading '-': one token in 64 would start with one, and `boneyard connect NAME
  // --token -Xy...` would read it as a flag (seen in CI as "flag '--token' needs a value").
  std::string token;
  do {
    token = absl::WebSafeBase64Escape(RandomBytes(kSecretBytes));
  } while (token.front() == '-');
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
