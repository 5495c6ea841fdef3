
/// `langbench bench`: speed measurements.
struct BenchCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "bench",
        abstract: "Measure speed: the built-in recognizer against a peer, the llama.cpp backend against llama-bench.",
        subcommands: [BenchDetectorCommand.self, BenchBackendCommand.self, BenchCorpusCommand.self, BenchCorpusScaleCommand.self, BenchResultsScaleCommand.self]
    )
}
