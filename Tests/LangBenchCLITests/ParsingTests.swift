import Testing
import TestSupport
@testable import LangBenchCLI

struct ParsingTests {
    static let configuration = CommandConfiguration(
        name: "demo", abstract: "Demo.",
        arguments: [ArgumentSpec("paths", help: "Paths.", repeating: true)],
        groups: [OptionGroup("Demo", [.value("count", short: "n", "n", help: "Count."), .flag("quiet", help: "Quiet."),
                                      .repeated("tag", "tag", help: "Tag.")])])

    func parse(_ arguments: [String]) throws -> ParsedArguments {
        try ArgumentParser(configuration: Self.configuration, commandPath: "demo").parse(arguments)
    }

    @Test func parsesLongShortInlineAndRepeated() throws {
        let parsed = try parse(["a", "--count", "3", "--tag=x", "b", "--tag", "y,z", "-n", "4", "--quiet", "--", "--literal"])
        #expect(parsed.positionals == ["a", "b", "--literal"])
        #expect(try parsed.int("count", default: 0) == 4)
        #expect(parsed.flag("quiet"))
        #expect(parsed.list("tag") == ["x", "y", "z"])
    }

    @Test(arguments: [
        (["a", "--bogus"], "unknown option '--bogus'"),
        (["a", "--count"], "--count needs a value"),
        (["a", "--quiet=yes"], "--quiet takes no value"),
        ([], "missing argument <paths>"),
    ])
    func usageErrorsNameTheFlag(arguments: [String], message: String) {
        #expect { try parse(arguments) } throws: { ($0 as? UsageError)?.message == message }
    }

    @Test func badNumberNamesTheFlag() throws {
        let parsed = try parse(["a", "--count", "many"])
        #expect { try parsed.int("count", default: 1, range: 1...10) } throws: {
            ($0 as? UsageError)?.message == "--count takes a whole number in 1...10, not 'many'"
        }
    }
}
