// The layout written straight to Struct wire bytes must parse as the Struct JsonToStruct builds.
#include "services/common/struct_wire.h"

#include <map>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "boneyard/v1/game.pb.h"
#include "engine/core/game.h"
#include "engine/core/registry.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "services/common/engine_proto.h"

namespace boneyard {
namespace {

using google::protobuf::util::MessageDifferencer;
using nlohmann::json;

// The bytes parsed as a Struct equal JsonToStruct's message.
void ExpectSameStruct(const json& object) {
  SCOPED_TRACE(object.dump());
  google::protobuf::Struct parsed;
  ASSERT_TRUE(parsed.ParseFromString(JsonToStructWire(object)));
  const google::protobuf::Struct expected = JsonToStruct(object);
  std::string differences;
  MessageDifferencer differencer;
  differencer.ReportDifferencesToString(&differences);
  EXPECT_TRUE(differencer.Compare(parsed, expected)) << differences;
}

TEST(StructWireTest, EveryKindOfValueParsesAsJsonToStructBuildsIt) {
  ExpectSameStruct(json::object());
  ExpectSameStruct({{"null", nullptr}, {"yes", true}, {"no", false}});
  ExpectSameStruct({{"zero", 0}, {"int", 42}, {"negative", -7}, {"unsigned", 18446744073709551615u},
                    {"float", 2.5}, {"big", 9007199254740993LL}});
  ExpectSameStruct({{"empty", ""}, {"text", "6-4"}, {"unicode", "d\u00e9j\u00e0 vu \u2192"}});
  ExpectSameStruct({{"list", json::array({1, "two", nullptr, true, json::array(), json::object()})},
                    {"empty_list", json::array()}});
  ExpectSameStruct({{"a", {{"b", {{"c", {{"d", json::array({{{"e", 1}}})}}}}}}}});
  // A key long enough for a two-byte length, and a list long enough for a two-byte size.
  json long_list = json::array();
  for (int i = 0; i < 300; ++i) long_list.push_back(i);
  ExpectSameStruct({{std::string(200, 'k'), long_list}});
}

TEST(StructWireTest, ANonObjectIsAnEmptyStruct) {
  EXPECT_EQ(JsonToStructWire(json::array({1, 2})), "");
  EXPECT_EQ(JsonToStructWire(json(5)), "");
}

TEST(StructWireTest, RealLayoutsOfEveryGame) {
  for (const std::string& name : DefaultRegistry().Names()) {
    SCOPED_TRACE(name);
    absl::StatusOr<std::shared_ptr<const Game>> game = DefaultRegistry().CreateGame(name, std::map<std::string, OptionValue>{});
    ASSERT_TRUE(game.ok()) << game.status();
    absl::StatusOr<std::unique_ptr<State>> state = (*game)->NewMatch(11);
    ASSERT_TRUE(state.ok()) << state.status();
    // A few moves in, so the layout holds tiles.
    for (int i = 0; i < 6 && !(*state)->IsTerminal(); ++i) {
      ActionList legal;
      (*state)->LegalActions(legal);
      (*state)->Apply(legal[0]);
    }
    ExpectSameStruct((*state)->ViewFor(kSpectator)->LayoutToJson());
  }
}

TEST(StructWireTest, AFieldSetAsWireBytesIsTheTypedFieldOnTheWire) {
  const json layout = {{"line", json::array({"6-6", "6-4"})}, {"spinner", "6-6"}};
  v1::SeatView view;
  view.set_sequence(3);
  *view.mutable_layout() = JsonToStruct({{"stale", true}});
  SetFieldWire(view, v1::SeatView::kLayoutFieldNumber, JsonToStructWire({{"first", 1}}));
  // Set again: the later bytes replace the earlier ones.
  SetFieldWire(view, v1::SeatView::kLayoutFieldNumber, JsonToStructWire(layout));
  EXPECT_FALSE(view.has_layout()) << "in this process the typed field reads as unset";

  v1::SeatView received;
  ASSERT_TRUE(received.ParseFromString(view.SerializeAsString()));
  EXPECT_EQ(received.sequence(), 3);
  EXPECT_TRUE(MessageDifferencer::Equals(received.layout(), JsonToStruct(layout)))
      << received.layout().DebugString();
  EXPECT_EQ(received.GetReflection()->GetUnknownFields(received).field_count(), 0);
}

}  // namespace
}  // namespace boneyard
