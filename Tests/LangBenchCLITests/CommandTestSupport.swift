import Foundation
import LangBenchCLI
import TestSupport

/// Runs a command line in-process and captures what it wrote.
struct CommandResult {
    var status: ExitStatus
    var stdout: String
    var stderr: String
}

/// Runs `langbench <arguments>` through `CommandRunner`, the entry point `main.swift` calls, with the
/// test process's environment (so a started llama-server is found like the CLI finds it).
func runCommand(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) async -> CommandResult {
    let out = BufferSink(), err = BufferSink()
    let status = await CommandRunner.run(LangBenchCommand.self, arguments: arguments,
                                         context: CommandContext(stdout: out, stderr: err, environment: environment))
    return CommandResult(status: status, stdout: out.text, stderr: err.text)
}

/// Paths and small corpora the command tests share.
enum CommandFixtures {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func path(_ relative: String) -> String { repository.appendingPathComponent(relative).path }

    /// The JSON-lines script detector of the library tests: Cyrillic → the first Cyrillic candidate.
    static let scriptDetector = "exec:python3 \(path("Tests/DetectionTests/Fixtures/detectors/script-detector.py"))"
    static let profile = path("Profiles/gemma3-270m.json")

    /// The default profile with its `backend` section set, written into `directory`; its path.
    static func profile(backend: [String: Any], in directory: URL) throws -> String {
        var profile = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.profile))) as! [String: Any]
        profile["backend"] = backend
        let path = directory.appendingPathComponent("profile.json")
        try JSONSerialization.data(withJSONObject: profile).write(to: path)
        return path.path
    }

    /// `count` one-word items, the first `ukrainian` of them Ukrainian and the rest Russian.
    static func wordCorpus(in directory: URL, count: Int = 30, ukrainian: Int = 20, name: String = "words.tsv") throws -> String {
        let rows = (0..<count).map { i in
            i < ukrainian ? String(format: "uk-%03d\tuk\tслово%d\t", i, i) : String(format: "ru-%03d\tru\tслово%d\t", i, i)
        }
        let url = directory.appendingPathComponent(name)
        try ("id\tlang\ttext\ttags\n" + rows.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// Two chat messages: one in a language the model supports, one it does not.
    static func chatCorpus(in directory: URL) throws -> String {
        let url = directory.appendingPathComponent("chat.tsv")
        try "id\tlang\ttext\ttags\nc-en\ten\tI finally finished my exam today!\t\nc-ru\tru\tПривет! Как прошёл твой день?\t\n"
            .write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    static func exists(_ directory: String, _ file: String) -> Bool {
        FileManager.default.fileExists(atPath: URL(fileURLWithPath: directory).appendingPathComponent(file).path)
    }
}
