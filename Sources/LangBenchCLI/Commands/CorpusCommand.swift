/// `langbench corpus`: check and describe corpus files.
struct CorpusCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "corpus",
        abstract: "Validate corpus files and print their statistics.",
        subcommands: [CorpusValidateCommand.self, CorpusStatsCommand.self]
    )
}
