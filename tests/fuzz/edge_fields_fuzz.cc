// Fuzz target: what the services read from a request before any logic runs — the validators
// (services/common/validation.h), page tokens, rule text and rule values, view masks.
//
// Input: byte 0 picks the reader; the rest is its input. Properties: nothing crashes; an id the
// validator accepts is short, valid text; error messages stay short whatever the value; a page
// token round-trips, and only the token as issued decodes; rules that resolve make a game.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "boneyard/v1/execution.pb.h"
#include "engine/core/registry.h"
#include "engine/core/rules.h"
#include "google/protobuf/field_mask.pb.h"
#include "services/common/engine_proto.h"
#include "services/common/page_token.h"
#include "services/common/validation.h"
#include "services/common/view_mask.h"
#include "tests/fuzz/fuzz_input.h"

namespace boneyard {
namespace {

void Check(bool condition) {
  if (!condition) std::abort();
}

// An error for a value of any size is at most this long (the field name and a quoted prefix).
constexpr size_t kMaxMessageBytes = 512;

void CheckShort(const absl::Status& status) {
  Check(status.message().size() <= kMaxMessageBytes);
}

void Validators(absl::string_view text) {
  absl::Status id = validation::CheckId("seats[0].player.player_id", text);
  CheckShort(id);
  if (id.ok()) {
    Check(!text.empty() && text.size() <= validation::kMaxIdBytes);
    Check(validation::CheckText("id", text, validation::kMaxIdBytes).ok());
  }
  CheckShort(validation::CheckOptionalId("request_id", text, validation::kMaxRequestIdBytes));
  CheckShort(validation::CheckText("reason", text, validation::kMaxReasonBytes));
  // Each quoted byte escapes to at most six characters (a \u0001).
  Check(validation::Quote(text).size() <= 6 * validation::kQuotedBytes + 32);
}

void PageToken(absl::string_view text) {
  static const PageTokens* const tokens = new PageTokens(PageTokenKey("fuzz-operator-secret"));
  absl::StatusOr<std::vector<std::string>> decoded = tokens->Decode(text);
  CheckShort(decoded.status());
  if (decoded.ok()) {
    // Only the token as issued decodes: no other spelling of it.
    Check(tokens->Encode(*decoded) == text);
  }
  // Any parts round-trip.
  const std::vector<std::string> parts = absl::StrSplit(text, '\xff');
  absl::StatusOr<std::vector<std::string>> round = tokens->Decode(tokens->Encode(parts));
  Check(round.ok() && *round == parts);
}

void RuleTexts(uint8_t game_byte, absl::string_view text) {
  absl::StatusOr<RuleText> rules = ParseRuleText(text);
  if (!rules.ok()) return;
  const std::vector<std::string> names = DefaultRegistry().Names();
  (void)DefaultRegistry().CreateGame(names[game_byte % names.size()], *rules);
}

void CreateMatchRules(absl::string_view bytes) {
  v1::CreateMatchRequest request;
  if (!request.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return;
  CheckShort(validation::CheckDuration("clock.per_move", request.clock().per_move()));
  CheckShort(validation::CheckEnum("clock.timeout_policy", request.clock().timeout_policy()));
  const GameSpec* spec = DefaultRegistry().Find(request.game());
  if (spec == nullptr) return;
  absl::StatusOr<std::map<std::string, OptionValue>> values =
      RuleValuesFromProto(request.rules(), *spec);
  if (!values.ok()) return;
  (void)DefaultRegistry().CreateGame(spec->name, *values);
}

void ViewMasks(absl::string_view bytes) {
  google::protobuf::FieldMask mask;
  if (!mask.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return;
  absl::StatusOr<ViewMask> parsed = ViewMask::Parse(mask, *v1::SeatView::descriptor(), "view_mask");
  if (!parsed.ok()) return;
  v1::SeatView view;
  view.set_sequence(7);
  view.set_match("matches/m");
  parsed->Trim(view);
}

}  // namespace
}  // namespace boneyard

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace boneyard;
  fuzz::Input input(data, size);
  const uint8_t reader = input.Byte();
  switch (reader % 5) {
    case 0:
      Validators(input.Rest());
      break;
    case 1:
      PageToken(input.Rest());
      break;
    case 2: {
      const uint8_t game = input.Byte();
      RuleTexts(game, input.Rest());
      break;
    }
    case 3:
      CreateMatchRules(input.Rest());
      break;
    case 4:
      ViewMasks(input.Rest());
      break;
  }
  return 0;
}
