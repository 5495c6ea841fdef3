import Checks
import Foundation
import Testing

/// A check's key: typed dimensions, written the one way every report prints them.
struct CheckKeyTests {
    @Test(arguments: ["config=constrained", "config=constrained lang=uk", "variant=b route=pivot", "route=direct reason=timeout", ""])
    func aKeyReadsBackAsItIsWritten(_ text: String) throws {
        let key = try #require(CheckKey(parsing: text))
        #expect(key.description == text)
        let json = try JSONEncoder().encode(key)
        #expect(String(decoding: json, as: UTF8.self) == "\"\(text)\"")
        #expect(try JSONDecoder().decode(CheckKey.self, from: json) == key)
    }

    @Test func dimensionsAreWrittenInTheirOrderWhateverOrderTheyAreGiven() {
        let key = CheckKey([.reason: "timeout", .route: "direct", .variant: "b"])
        #expect(key.description == "variant=b route=direct reason=timeout")
        #expect(key[.route] == "direct" && key[.lang] == nil)
        #expect(CheckKey([.route: "direct"]).with(.lang, "ru").description == "route=direct lang=ru")
    }

    @Test(arguments: ["lang", "size=3", "route=direct route=pivot", "route"])
    func anythingElseIsNotAKey(_ text: String) {
        #expect(CheckKey(parsing: text) == nil)
    }

    @Test func aDecodedKeyOfAnUnknownDimensionNamesTheDimensions() {
        let error = #expect(throws: DecodingError.self) { try JSONDecoder().decode(CheckKey.self, from: Data(#""size=3""#.utf8)) }
        #expect(String(describing: error).contains("not a check key: 'size=3' (dimension=value, dimensions config, variant, route, lang, reason)"))
    }

    @Test func aBuiltKeyReadsBackFromWhatItPrints() {
        let key = CheckKey([.lang: "ja", .route: "pivot"])
        #expect(key.description == "route=pivot lang=ja" && CheckKey(parsing: key.description) == key)
    }
}
