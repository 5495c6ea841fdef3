/// `langbench corpus`: check and describe corpus files.
struct CorpusCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "corpus",
        abstract: "Validate corpus files, print their statistics, import localisation files.",
        subcommands: [CorpusValidateCommand.self, CorpusStatsCommand.self, CorpusImportCommand.self]
    )
}
