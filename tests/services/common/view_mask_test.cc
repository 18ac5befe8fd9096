// A stream's view_mask: which top-level fields of a view it gets.
#include "services/common/view_mask.h"

#include "absl/strings/str_cat.h"
#include "boneyard/v1/game.pb.h"
#include "google/protobuf/descriptor.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace boneyard {
namespace {

using ::testing::HasSubstr;

google::protobuf::FieldMask Mask(std::initializer_list<const char*> paths) {
  google::protobuf::FieldMask mask;
  for (const char* path : paths) mask.add_paths(path);
  return mask;
}

v1::SeatView FullView() {
  v1::SeatView view;
  view.set_match("matches/1");
  view.set_seat(1);
  view.set_sequence(9);
  view.set_current_seat(1);
  view.add_hand("6-4");
  view.add_legal_actions()->set_text("6-4 right");
  (*view.mutable_layout()->mutable_fields())["spinner"].set_string_value("6-6");
  view.mutable_last_event()->set_seat(0);
  return view;
}

TEST(ViewMaskTest, AnEmptyMaskIsEveryField) {
  absl::StatusOr<ViewMask> mask =
      ViewMask::Parse(Mask({}), *v1::SeatView::descriptor(), "view_mask");
  ASSERT_TRUE(mask.ok()) << mask.status();
  EXPECT_TRUE(mask->all());
  EXPECT_TRUE(mask->Includes(v1::SeatView::kLayoutFieldNumber));
  v1::SeatView view = FullView();
  mask->Trim(view);
  EXPECT_EQ(view.SerializeAsString(), FullView().SerializeAsString());
  EXPECT_TRUE(ViewMask().all());
}

TEST(ViewMaskTest, TrimKeepsOnlyTheNamedFields) {
  absl::StatusOr<ViewMask> mask = ViewMask::Parse(
      Mask({"sequence", "legal_actions", "seat", "sequence"}), *v1::SeatView::descriptor(),
      "view_mask");
  ASSERT_TRUE(mask.ok()) << mask.status();
  EXPECT_FALSE(mask->all());
  EXPECT_TRUE(mask->Includes(v1::SeatView::kSequenceFieldNumber));
  EXPECT_FALSE(mask->Includes(v1::SeatView::kLayoutFieldNumber));
  v1::SeatView view = FullView();
  mask->Trim(view);
  EXPECT_EQ(view.sequence(), 9);
  EXPECT_EQ(view.seat(), 1);
  EXPECT_EQ(view.legal_actions_size(), 1);
  EXPECT_EQ(view.match(), "");
  EXPECT_EQ(view.hand_size(), 0);
  EXPECT_FALSE(view.has_layout());
  EXPECT_FALSE(view.has_last_event());
  // Repeated paths make the same mask.
  absl::StatusOr<ViewMask> same = ViewMask::Parse(Mask({"legal_actions", "seat", "sequence"}),
                                                  *v1::SeatView::descriptor(), "view_mask");
  ASSERT_TRUE(same.ok());
  EXPECT_TRUE(*same == *mask);
}

// Field numbers below 64 are bits of a word, larger ones a list: both count, in any order.
TEST(ViewMaskTest, LargeFieldNumbersCountToo) {
  const google::protobuf::Descriptor& options = *google::protobuf::FileOptions::descriptor();
  absl::StatusOr<ViewMask> mask = ViewMask::Parse(
      Mask({"uninterpreted_option", "java_package", "uninterpreted_option"}), options, "mask");
  ASSERT_TRUE(mask.ok()) << mask.status();
  EXPECT_FALSE(mask->all());
  EXPECT_TRUE(mask->Includes(google::protobuf::FileOptions::kJavaPackageFieldNumber));
  EXPECT_TRUE(mask->Includes(google::protobuf::FileOptions::kUninterpretedOptionFieldNumber));
  EXPECT_FALSE(mask->Includes(google::protobuf::FileOptions::kJavaOuterClassnameFieldNumber));
  EXPECT_FALSE(mask->Includes(1000));

  absl::StatusOr<ViewMask> reordered =
      ViewMask::Parse(Mask({"java_package", "uninterpreted_option"}), options, "mask");
  ASSERT_TRUE(reordered.ok()) << reordered.status();
  EXPECT_TRUE(*mask == *reordered);
  absl::StatusOr<ViewMask> fewer = ViewMask::Parse(Mask({"java_package"}), options, "mask");
  ASSERT_TRUE(fewer.ok()) << fewer.status();
  EXPECT_FALSE(*mask == *fewer);
  EXPECT_FALSE(*fewer == ViewMask());

  google::protobuf::FileOptions message;
  message.set_java_package("p");
  message.set_java_outer_classname("C");
  message.add_uninterpreted_option()->set_identifier_value("x");
  mask->Trim(message);
  EXPECT_EQ(message.java_package(), "p");
  EXPECT_FALSE(message.has_java_outer_classname());
  EXPECT_EQ(message.uninterpreted_option_size(), 1);
}

TEST(ViewMaskTest, AnUnknownOrNestedPathIsInvalidArgumentNamingIt) {
  for (const char* path : {"hands", "last_event.seat", ""}) {
    SCOPED_TRACE(path);
    absl::StatusOr<ViewMask> mask =
        ViewMask::Parse(Mask({"sequence", path}), *v1::SeatView::descriptor(), "view_mask");
    ASSERT_FALSE(mask.ok());
    EXPECT_EQ(mask.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(mask.status().message(),
                HasSubstr(absl::StrCat("view_mask: SeatView has no field \"", path)));
  }
  // A field of another view is not a field of this one.
  absl::StatusOr<ViewMask> hand =
      ViewMask::Parse(Mask({"hand"}), *v1::PublicView::descriptor(), "view_mask");
  EXPECT_EQ(hand.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace boneyard
