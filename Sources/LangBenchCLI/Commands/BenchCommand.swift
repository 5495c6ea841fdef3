/// `langbench bench`: speed measurements.
struct BenchCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "bench",
        abstract: "Measure speed and footprint.",
        subcommands: [BenchDetectorCommand.self]
    )
}
