/// A command: decodes its options from parsed arguments, validates them, then runs.
public protocol ParsableCommand: Sendable {
    static var configuration: CommandConfiguration { get }
    init(_ arguments: ParsedArguments) throws
    /// Checks option combinations before anything runs; throw `UsageError` to exit 64.
    func validate() throws
    /// Does the work. Returns the exit status (`.success` unless a check failed).
    func run(_ context: CommandContext) async throws -> ExitStatus
}

extension ParsableCommand {
    public func validate() throws {}
}

/// A command that only groups subcommands (`langbench corpus`, `langbench bench`).
public protocol CommandGroup: ParsableCommand {}

extension CommandGroup {
    public init(_ arguments: ParsedArguments) throws {
        throw UsageError("missing subcommand", command: Self.configuration.name)
    }

    public func run(_ context: CommandContext) async throws -> ExitStatus { .success }
}
