import Support
import Testing

struct SliceKeyTests {
    @Test func aKeyReadsBackAsItIsWritten() {
        for key in ["all", "lang=uk", "lang=zh-Hans", "tag=greeting", "length=3-5", "tag=a=b"] {
            #expect(SliceKey(key)?.description == key, "\(key)")
        }
        #expect(SliceKey("lang=uk") == .lang("uk") && SliceKey("lang=uk")?.language == "uk" && SliceKey("tag=uk")?.language == nil)
        #expect(SliceKey("length=1")?.kind == .length && SliceKey("all")?.kind == nil && SliceKey("length=1")?.value == "1")
    }

    @Test func aKeyOfNoKindIsNone() {
        for key in ["", "uk", "language=uk", "Lang=uk", "all=1"] { #expect(SliceKey(key) == nil, "\(key)") }
    }
}
