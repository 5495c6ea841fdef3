import Support
import Foundation
import Backend

/// `langbench bench backend`: prompt-processing and generation tokens/s through the harness's client,
/// from the server's own timings, and from llama-bench on the same model and threads.
struct BenchBackendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "backend",
        abstract: "Compare client, server and llama-bench tokens/s and report the harness overhead.",
        discussion: """
        Starts llama-server (one slot) and, after a warm-up, runs --repetitions rounds of one prompt-processing \
        request, one generation request (native, then the same through /v1/completions) and llama-bench -r 1 with \
        the same prompt length, generation length and threads, so bursts of machine load hit them all alike. Figures are medians. Writes backend-bench.md, backend-bench.json and llama-server.log to --out and \
        prints the Markdown table.
        """,
        groups: [
            OptionGroup("Measurement", [
                .value("prompt-tokens", "n", help: "Prompt length for prompt processing.", default: "256"),
                .value("generated-tokens", "n", help: "Tokens generated per request.", default: "128"),
                .value("repetitions", "n", help: "Rounds: each a pp and a tg request and one llama-bench run.", default: "5"),
                .value("threads", "n", help: "Threads for the server and llama-bench.", default: "2"),
            ]),
            // A benchmark is repeated, never resumed.
            OptionGroup("Output", OutputOptions.group.options.filter { $0.long != "resume" }),
        ]
    )

    let settings: BackendBenchSettings
    let output: OutputOptions

    init(_ arguments: ParsedArguments) throws {
        settings = BackendBenchSettings(
            promptTokens: try arguments.int("prompt-tokens", range: 8...8192),
            generatedTokens: try arguments.int("generated-tokens", range: 2...4096),
            repetitions: try arguments.int("repetitions", range: 1...100),
            threads: try arguments.int("threads", range: 1...256))
        output = try OutputOptions(arguments, defaultPrefix: "bench-backend")
    }

    func run(_ context: CommandContext) async throws -> ExitStatus {
        let quiet = output.quiet
        let benchmark = BackendBenchmark(paths: BackendPaths.resolve(environment: context.environment),
                                         settings: settings, runDirectory: output.directory)
        let report = try await benchmark.run { step in if !quiet { context.note("bench: \(step)") } }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(try encoder.encode(report), to: output.directory.appendingPathComponent("backend-bench.json"))
        try AtomicFile.write(report.markdown, to: output.directory.appendingPathComponent("backend-bench.md"))
        context.stdout.write(report.markdown)
        context.stdout.write("wrote \(output.directory.path)/backend-bench.md\n")
        return .success
    }
}
