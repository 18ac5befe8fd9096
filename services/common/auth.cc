#include "services/common/auth.h"

#include <iterator>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"

namespace boneyard {
namespace {

constexpr absl::string_view kAuthorizationHeader = "authorization";
constexpr absl::string_view kBearerScheme = "bearer";

}  // namespace

std::optional<std::string> ParseBearerHeader(absl::string_view header_value) {
  if (header_value.size() <= kBearerScheme.size() ||
      !absl::EqualsIgnoreCase(header_value.substr(0, kBearerScheme.size()), kBearerScheme) ||
      header_value[kBearerScheme.size()] != ' ') {
    return std::nullopt;
  }
  absl::string_view token = header_value.substr(kBearerScheme.size());
  // HTTP trims a field value's surrounding white space (RFC 9110, 5.5), and the scheme is
  // case-insensitive (RFC 7235): "bearer abc " is the token "abc", as any HTTP server reads it.
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  while (!token.empty() && (token.back() == ' ' || token.back() == '\t')) token.remove_suffix(1);
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

}  // namespace boneyard
