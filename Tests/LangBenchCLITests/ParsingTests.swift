@testable import Detection
import Foundation
@testable import Generation
@testable import Corpus
import Suite
@testable import LangBenchCLI
import TestSupport
import Testing

struct ParsingTests {
    static let configuration = CommandConfiguration(
        name: "demo", abstract: "Demo.",
        arguments: [ArgumentSpec("paths", help: "Paths.", repeating: true)],
        groups: [OptionGroup("Demo", [.value("count", short: "n", "n", help: "Count."), .flag("quiet", help: "Quiet."),
                                      .repeated("tag", "tag", help: "Tag."), .value("level", "n", help: "Level.", default: "2"),
                                      .value("stamp", "s", help: "Stamp.", computedDefault: "now")])])

    func parse(_ arguments: [String]) throws -> ParsedArguments {
        try ArgumentParser(configuration: Self.configuration, commandPath: "demo").parse(arguments)
    }

    @Test func parsesLongShortInlineAndRepeated() throws {
        let parsed = try parse(["a", "--count", "3", "--tag=x", "b", "--tag", "y,z", "-n", "4", "--quiet", "--", "--literal"])
        #expect(parsed.positionals == ["a", "b", "--literal"])
        #expect(try parsed.int("count") == 4)
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
        #expect { try parsed.int("count", range: 1...10) } throws: {
            ($0 as? UsageError)?.message == "--count takes a whole number in 1...10, not 'many'"
        }
    }

    /// The declaration is the only default: the parser fills it in, `--help` prints it; a computed
    /// default is only described.
    @Test func theDeclaredDefaultIsTheParsedDefault() throws {
        let parsed = try parse(["a"])
        #expect(try parsed.int("level") == 2 && !parsed.isGiven("level"))
        #expect(parsed.value("stamp") == nil && parsed.value("count") == nil)
        #expect(try parsed.optionalInt("count") == nil)
        #expect(try parse(["a", "--level", "5"]).int("level") == 5)
        let help = HelpFormatter(configuration: Self.configuration, commandPath: "demo").render()
        #expect(help.contains("Level. (default: 2)") && help.contains("Stamp. (default: now)"))
    }

    /// `generate`'s options without flags are the library's defaults.
    @Test func generateDefaultsAreTheLibrarys() throws {
        let parsed = try ArgumentParser(configuration: GenerateCommand.configuration, commandPath: "langbench generate").parse([])
        #expect(try GenerationOptions(parsed).plan == GenerationPlan())
        #expect(try BackendOptions(parsed).source == ServerSource())
        let detectors = try DetectorOptions(parsed)
        #expect(detectors.factory.timeout == DetectorFactory().timeout)
        #expect(detectors.detectors.recognizerModel == nil, "no sentinel: the bundled model is found by search")
        #expect(detectors.profilePath == ModelProfile.defaultPath)
    }

    /// `--server-url` twice is a pool, in the order given; a URL's credentials never reach a report.
    @Test(arguments: ["generate", "run"])
    func serverURLRepeatedIsAPool(command: String) throws {
        let configuration = command == "generate" ? GenerateCommand.configuration : RunCommand.configuration
        let parsed = try ArgumentParser(configuration: configuration, commandPath: "langbench \(command)")
            .parse(["--server-url", "http://127.0.0.1:8081", "--server-url", "https://user:pw@10.0.0.6:8080/v1?key=k"])
        let source = try BackendOptions(parsed).source
        #expect(source.isPool && source.urls.map(\.absoluteString) == ["http://127.0.0.1:8081", "https://user:pw@10.0.0.6:8080/v1?key=k"])
        #expect(source.urls.map(ServerSource.redacted) == ["http://127.0.0.1:8081", "https://10.0.0.6:8080/v1"])
    }

    @Test func serversFileAddsItsURLsAfterServerURL() throws {
        let directory = try Fixture.temporaryDirectory()
        let file = directory.appendingPathComponent("servers.txt")
        try Data("# the pool\n\nhttp://10.0.0.6:8080   # second\n  http://10.0.0.7:8080\n".utf8).write(to: file)
        let parsed = try ArgumentParser(configuration: GenerateCommand.configuration, commandPath: "langbench generate")
            .parse(["--server-url", "http://127.0.0.1:8081", "--servers-file", file.path])
        #expect(try BackendOptions(parsed).source.urls.map(\.absoluteString) == ["http://127.0.0.1:8081", "http://10.0.0.6:8080", "http://10.0.0.7:8080"])
    }

    @Test func aBadServersFileLineIsAUsageErrorNamingFileAndLine() async throws {
        let directory = try Fixture.temporaryDirectory()
        let file = directory.appendingPathComponent("servers.txt")
        try Data("http://10.0.0.6:8080\n# ok\nftp://secret@10.0.0.7\n".utf8).write(to: file)
        let result = await runCommand(["generate", "--corpus", "x.tsv", "--servers-file", file.path])
        #expect(result.status == .usage)
        #expect(result.stderr.hasPrefix("error: --servers-file \(file.path):3: expected an http(s) URL"), "\(result.stderr)")
        #expect(!result.stderr.contains("secret"))
    }

    /// A servers file saved with CRLF endings reads as its lines (the CR used to stay in the URL, invisible in the error).
    @Test func aServersFileWithCRLFEndingsReadsItsLines() throws {
        let file = try Fixture.temporaryDirectory().appendingPathComponent("crlf.txt")
        try Data("http://10.0.0.6:8080\r\n# a comment\r\nhttp://10.0.0.7:8080\r\n".utf8).write(to: file)
        let parsed = try ArgumentParser(configuration: GenerateCommand.configuration, commandPath: "langbench generate").parse(["--servers-file", file.path])
        #expect(try BackendOptions(parsed).source.urls.map(\.absoluteString) == ["http://10.0.0.6:8080", "http://10.0.0.7:8080"])
    }

    @Test func aDirectoryAsTheServersFileIsNamedAsOne() async throws {
        let directory = try Fixture.temporaryDirectory()
        let result = await runCommand(["generate", "--corpus", "x.tsv", "--servers-file", directory.path])
        #expect(result.status == .usage)
        #expect(result.stderr.hasPrefix("error: --servers-file \(directory.path) is a directory; give the file that lists one server URL per line"), "\(result.stderr)")
    }

    /// One server given twice — the same URL, with a trailing slash, in another case, by flag and in the file, or
    /// natively and as its own /v1 — would be a "pool of two" whose queues share one server: refused naming both places.
    @Test(arguments: [
        (["--server-url", "http://127.0.0.1:8080", "--server-url", "http://127.0.0.1:8080"], "--server-url #1 and --server-url #2"),
        (["--server-url", "http://127.0.0.1:8080", "--server-url", "http://127.0.0.1:8080/"], "--server-url #1 and --server-url #2"),
        (["--server-url", "http://LOCALHOST:80/v1", "--server-url", "http://localhost/v1/"], "--server-url #1 and --server-url #2"),
        (["--server-url", "http://127.0.0.1:8080", "--server-url", "http://127.0.0.1:8080/v1"], "--server-url #1 and --server-url #2"),
        (["--server-url", "http://u:secret-pw@127.0.0.1:8080/v1?k=1", "--server-url", "http://127.0.0.1:8080/v1"], "--server-url #1 and --server-url #2"),
        (["--server-url", "http://127.0.0.1:8081", "--servers-file", "SERVERS"], "--server-url #1 and --servers-file SERVERS:2"),
    ])
    func oneServerGivenTwiceIsRefusedNamingBothPlaces(arguments: [String], places: String) async throws {
        let file = try Fixture.temporaryDirectory().appendingPathComponent("servers.txt")
        try Data("http://10.0.0.6:8080\nhttp://127.0.0.1:8081/\n".utf8).write(to: file)
        let result = await runCommand(["generate", "--corpus", "x.tsv"] + arguments.map { $0 == "SERVERS" ? file.path : $0 })
        #expect(result.status == .usage)
        #expect(result.stderr.contains("is given twice (\(places.replacingOccurrences(of: "SERVERS", with: file.path))): one server is one server"), "\(result.stderr)")
        #expect(!result.stderr.contains("secret-pw"))
    }

    /// Servers that only look alike are not one: another port, host or path.
    @Test func distinctServersAreAPool() throws {
        let parsed = try ArgumentParser(configuration: GenerateCommand.configuration, commandPath: "langbench generate")
            .parse(["--server-url", "http://127.0.0.1:8080", "--server-url", "http://127.0.0.1:8081", "--server-url", "http://127.0.0.2:8080",
                    "--server-url", "http://127.0.0.1:8080/proxy/v1"])
        #expect(try BackendOptions(parsed).source.urls.count == 4)
    }
}

