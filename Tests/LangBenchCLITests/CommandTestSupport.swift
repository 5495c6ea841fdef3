import LangBenchCLI

/// Runs a command line in-process and captures what it wrote.
struct CommandResult {
    var status: ExitStatus
    var stdout: String
    var stderr: String
}

func runCommand(_ arguments: [String]) async -> CommandResult {
    let out = BufferSink(), err = BufferSink()
    let status = await CommandRunner.run(LangBenchCommand.self, arguments: arguments,
                                         context: CommandContext(stdout: out, stderr: err))
    return CommandResult(status: status, stdout: out.text, stderr: err.text)
}
