/// `langbench bench`: speed measurements.
struct BenchCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "bench",
        abstract: "Measure speed: the llama.cpp backend through the harness against llama-bench.",
        subcommands: [BenchBackendCommand.self]
    )
}
