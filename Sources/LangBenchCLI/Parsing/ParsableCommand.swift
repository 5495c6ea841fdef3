/// A command: decodes its options from parsed arguments, validates them, then runs.
package protocol ParsableCommand: Sendable {
    static var configuration: CommandConfiguration { get }
    init(_ arguments: ParsedArguments) throws
    /// Checks option combinations before anything runs; throw `UsageError` to exit 64.
    func validate() throws
    /// Does the work. Returns the exit status (`.success` unless a check failed).
    func run(_ context: CommandContext) async throws -> ExitStatus
}

extension ParsableCommand {
    package func validate() throws {}
}

/// A command that only groups subcommands (`langbench corpus`, `langbench bench`).
package protocol CommandGroup: ParsableCommand {}

extension CommandGroup {
    package init(_ arguments: ParsedArguments) throws {
        throw UsageError("missing subcommand", command: Self.configuration.name)
    }

    package func run(_ context: CommandContext) async throws -> ExitStatus { .success }
}
