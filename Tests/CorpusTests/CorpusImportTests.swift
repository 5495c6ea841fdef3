import Foundation
@testable import Corpus
import TestSupport
import Testing

/// `corpus import`: each localisation format read, the filters, the ambiguity split, the seeded draw, located errors.
struct CorpusImportTests {
    static func write(_ data: Data, _ name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
        return url.path
    }

    static func write(_ text: String, _ name: String, in directory: URL) throws -> String {
        try write(Data(text.utf8), name, in: directory)
    }

    /// A little-endian `.mo` file holding `entries` (msgid with any context, translation) in order.
    static func mo(_ entries: [(String, String)]) -> Data {
        var data = Data(), strings = Data()
        func word(_ value: Int) -> Data { withUnsafeBytes(of: UInt32(value).littleEndian) { Data($0) } }
        let headerSize = 28, tables = 16 * entries.count
        var originals = Data(), translations = Data()
        for (original, translation) in entries {
            for (text, table) in [(original, 0), (translation, 1)] {
                let offset = headerSize + tables + strings.count
                let entry = word(text.utf8.count) + word(offset)
                if table == 0 { originals += entry } else { translations += entry }
                strings += Data(text.utf8) + Data([0])
            }
        }
        data += word(0x950412de) + word(0) + word(entries.count) + word(headerSize) + word(headerSize + 8 * entries.count) + word(0) + word(0)
        return data + originals + translations + strings
    }

    static let cldr = """
        <?xml version="1.0" encoding="UTF-8" ?>
        <ldml><identity><language type="uk"/></identity><annotations>
        <annotation cp="😀">обличчя | усмішка | широка усмішка</annotation>
        <annotation cp="😀" type="tts">широка усмішка</annotation>
        <annotation cp="🔟">кнопка 10</annotation>
        </annotations></ldml>
        """

    @Test func everyFormatIsReadWithItsClusterAndEnglishSource() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let uk = try LanguageCode("uk")
        let po = try Self.write("""
            msgid ""
            msgstr "Content-Type: text/plain; charset=UTF-8\\n"

            #, fuzzy
            msgid "Old"
            msgstr "Старе"

            msgctxt "menu"
            msgid "Open file"
            msgstr "Відкрити "
            "файл"

            msgid "Save"
            msgid_plural "Saves"
            msgstr[0] "Зберегти"
            msgstr[1] "Зберегти всі"
            """, "app.po", in: directory)
        let read = try LocalisationFormat.po.read(po, language: uk)[uk] ?? []
        #expect(read.map(\.text) == ["Відкрити файл", "Зберегти"])
        #expect(read.map(\.english) == ["Open file", "Save"])
        #expect(read.map(\.context) == ["menu", ""] && read.allSatisfy { $0.cluster == "app" })
        #expect(read.first?.location.line == 8)

        let mo = try Self.write(Self.mo([("", "header"), ("menu\u{4}Open file", "Відкрити файл"), ("Save", "Зберегти")]), "sw.mo", in: directory)
        let compiled = try LocalisationFormat.mo.read(mo, language: uk)[uk] ?? []
        #expect(compiled.map(\.text) == ["Відкрити файл", "Зберегти"] && compiled.map(\.context) == ["menu", ""])
        #expect(compiled.allSatisfy { $0.cluster == "sw" })

        let ftl = try Self.write("""
            # Comment
            -brand-name = Firefox
            open-button = Відкрити
                .title = Відкрити цей файл
            long-text =
                Перший рядок
                другий рядок
            with-placeable = { -brand-name } оновлено
            """, "dialogs.ftl", in: directory)
        let fluent = try LocalisationFormat.ftl.read(ftl, language: uk)[uk] ?? []
        #expect(fluent.map(\.text) == ["Firefox", "Відкрити", "Відкрити цей файл", "Перший рядок другий рядок", "{ -brand-name } оновлено"])
        #expect(fluent.map(\.context)[2] == "open-button.title" && fluent.allSatisfy { $0.cluster == "dialogs.ftl" })

        let xml = try Self.write(Self.cldr, "uk.xml", in: directory)
        let annotations = try LocalisationFormat.cldr.read(xml, language: uk)[uk] ?? []
        #expect(annotations.map(\.text) == ["обличчя", "усмішка", "широка усмішка", "широка усмішка", "кнопка 10"])
        #expect(annotations.first?.cluster == "U+1F600" && annotations.last?.cluster == "U+1F51F")

        let strings = try Self.write("/* A comment */\n\"Cancel\" = \"Скасувати\";\n// another\n\"Quit \\\"now\\\"\" = \"Вийти\";\n",
                                     "Localizable.strings", in: directory)
        let apple = try LocalisationFormat.strings.read(strings, language: uk)[uk] ?? []
        #expect(apple.map(\.text) == ["Скасувати", "Вийти"] && apple.map(\.english) == ["Cancel", "Quit \"now\""])

        let catalog = try Self.write("""
            {"sourceLanguage": "en", "version": "1.0", "strings": {
              "greeting": {"localizations": {
                "en": {"stringUnit": {"state": "translated", "value": "Good morning"}},
                "uk": {"stringUnit": {"state": "translated", "value": "Добрий ранок"}},
                "de": {"stringUnit": {"state": "needs_review", "value": "Guten Morgen"}}}},
              "items": {"localizations": {"uk": {"variations": {"plural": {
                "one": {"stringUnit": {"state": "translated", "value": "один запис"}},
                "other": {"stringUnit": {"state": "translated", "value": "записи"}}}}}}}}}
            """, "Localizable.xcstrings", in: directory)
        let languages = try LocalisationFormat.xcstrings.read(catalog, language: nil)
        #expect(Set(languages.keys) == [try LanguageCode("en"), uk])
        #expect(languages[uk]?.map(\.text) == ["Добрий ранок", "один запис", "записи"])
        #expect(languages[uk]?.first?.english == "Good morning")
    }

    /// What is not a short phrase in the language's script is left out, and says why.
    @Test(arguments: [
        ("Відкрити файл", nil),
        ("{ $count } файлів", "placeholder or markup"),
        ("<b>Жирний</b>", "placeholder or markup"),
        ("Крок 2", "digit"),
        ("Відкрити PDF", "mixed script"),
        ("один два три чотири п'ять шість сім", "too long"),
        ("ЗБЕРЕГТИ", "all capitals"),
        ("Open file", "mixed script"),
    ] as [(String, String?)])
    func theFiltersSayWhyAStringIsLeftOut(text: String, reason: String?) throws {
        let string = LocalisedString(text: text, cluster: "c", location: SourceLocation(file: "f", line: 1))
        #expect(PhraseFilter().rejection(string, language: try LanguageCode("uk"), english: []) == reason)
    }

    @Test func aLatinTranslationEqualToTheEnglishSourceIsACopy() throws {
        let copy = LocalisedString(text: "Menu", english: "Menu", cluster: "c", location: SourceLocation(file: "f", line: 1))
        let other = LocalisedString(text: "Hilfe", cluster: "c", location: SourceLocation(file: "f", line: 2))
        #expect(PhraseFilter().rejection(copy, language: try LanguageCode("de"), english: []) == "English copy")
        #expect(PhraseFilter().rejection(other, language: try LanguageCode("de"), english: ["hilfe"]) == "English copy")
        #expect(PhraseFilter().rejection(copy, language: try LanguageCode("en"), english: ["menu"]) == nil)
        let long = LocalisedString(text: "添加到收藏夹并打开新的标签页设置面板以及更多选项", cluster: "c", location: SourceLocation(file: "f", line: 3))
        #expect(PhraseFilter().rejection(long, language: try LanguageCode("zh-Hans"), english: []) == "too long")
    }

    /// A text in two languages goes to the ambiguity list only; the draw keeps every source at most half, tags
    /// each item, and does not depend on the order the inputs were given in.
    @Test func sharedTextsAreAmbiguousAndTheDrawIsBalancedAndOrderFree() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let words = ["вода", "хліб", "вечір", "ранок", "сонце", "місто", "ліс", "поле", "море", "гора", "річка", "небо"]
        let a = try Self.write(words.prefix(8).enumerated().map { "m\($0.offset) = \($0.element)" }.joined(separator: "\n"), "a/a.ftl", in: directory)
        let b = try Self.write(words.suffix(6).enumerated().map { "n\($0.offset) = \($0.element) їжак" }.joined(separator: "\n"), "b/b.ftl", in: directory)
        let mk = try Self.write("x = вода\ny = леб\n", "c/mk.ftl", in: directory)
        let inputs = [CorpusImport.Input(source: "one", language: try LanguageCode("uk"), path: a),
                      CorpusImport.Input(source: "two", language: try LanguageCode("uk"), path: b),
                      CorpusImport.Input(source: "three", language: try LanguageCode("mk"), path: mk)]
        var importer = CorpusImport(inputs: inputs)
        importer.perLanguage = 8
        let result = try importer.run()
        #expect(result.ambiguous.map(\.text) == ["вода"] && result.ambiguous.first?.languages.map(\.identifier) == ["mk", "uk"])
        let uk = result.items.filter { $0.lang.identifier == "uk" }
        #expect(uk.count == 8 && !uk.contains { $0.text == "вода" })
        #expect(uk.filter { $0.hasTag("source:one") }.count == 4 && uk.filter { $0.hasTag("source:two") }.count == 4)
        #expect(uk.allSatisfy { $0.hasTag("unique-letter") == $0.text.contains("ї") })
        #expect(uk.filter { $0.hasTag("word-pairs") }.count == 4 && uk.filter { $0.hasTag("single-words") }.count == 4)
        #expect(result.items.first { $0.text == "леб" }?.sortedTags == ["cluster:mk.ftl", "no-unique-letter", "single-words", "source:three"])

        var reversed = CorpusImport(inputs: inputs.reversed())
        reversed.perLanguage = 8
        #expect(try reversed.run().items == result.items)
        importer.seed = 7
        #expect(Set(try importer.run().items.map(\.text)) != Set(result.items.map(\.text)))
    }

    @Test(arguments: [
        ("bad.mo", Data([0xde, 0x12, 0x04, 0x95, 0, 0, 0, 0, 5, 0, 0, 0]), "bad.mo: truncated .mo file: byte 12 is past its 12 bytes"),
        ("bad.mo", Data("not a catalogue".utf8), "bad.mo: not a gettext .mo file (no magic number)"),
        ("bad.xml", Data("<ldml>\n<annotations>\n<annotation cp=\"x\">a</annotations>".utf8), "bad.xml:3: malformed XML"),
        ("bad.xml", Data("<html></html>".utf8), "bad.xml:1: not a CLDR annotations file (no <ldml> root)"),
        ("bad.xcstrings", Data("{\"strings\": {\n\"a\": [1,}}".utf8), "bad.xcstrings:2: column 9: invalid JSON"),
        ("bad.xcstrings", Data("{\"strings\": {\"a\": {\"localizations\": {\"xx-nope\": {}}}}}".utf8), "bad.xcstrings: unknown language 'xx-nope'"),
        ("bad.po", Data("msgid \"a\"\nmsgstr \"b\nmsgid \"c\"\n".utf8), "bad.po:2: expected a quoted string"),
        ("bad.ftl", Data("ok = Так\n!!! what\n".utf8), "bad.ftl:2: not Fluent syntax"),
        ("empty.ftl", Data("# nothing\n".utf8), "no usable item in"),
    ] as [(String, Data, String)])
    func badInputIsALocatedError(name: String, data: Data, message: String) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.write(data, name, in: directory)
        let importer = CorpusImport(inputs: [CorpusImport.Input(source: "s", language: try LanguageCode("uk"), path: path)])
        let error = #expect(throws: ImportError.self) { try importer.run() }
        let text = error.map { String(describing: $0) } ?? ""
        #expect(text.replacingOccurrences(of: directory.path + "/", with: "").hasPrefix(message), "\(text)")
    }
}
