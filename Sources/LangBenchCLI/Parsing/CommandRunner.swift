import Support

/// Finds the command named by the arguments, parses, validates, runs, and maps any error to an
/// exit status. The executable calls `run` once; tests call it with a buffer context.
package enum CommandRunner {
    package static func run(_ root: any ParsableCommand.Type, arguments: [String], context: CommandContext) async -> ExitStatus {
        var context = context
        // Recorded in provenance and so in every report: a --server-url's user, password or query must not be, however
        // a later text cuts the URL (a raw `@` or space in a password), so its parts are registered as secrets first.
        arguments.forEach(Redaction.registerCredentials(in:))
        context.commandLine = ([root.configuration.name] + arguments).map(Redaction.text)
        // Both streams: stdout carries what doctor and the bench commands found out about a URL as typed.
        context.stdout = RedactingSink(context.stdout)
        context.stderr = RedactingSink(context.stderr)
        let status = await dispatch(root, arguments: arguments, context: context)
        // Whatever the command decided, output that did not reach stdout (a full disk, a closed pipe) is not a result.
        if let failure = context.stdout.failure {
            context.stderr.write("error: cannot write standard output (\(failure)); the output is incomplete\n")
            return .unavailable
        }
        return status
    }

    private static func dispatch(_ root: any ParsableCommand.Type, arguments: [String], context: CommandContext) async -> ExitStatus {
        var command: any ParsableCommand.Type = root
        var path = root.configuration.name
        var remaining = arguments[...]
        while let next = remaining.first,
              let sub = command.configuration.subcommands.first(where: { $0.configuration.name == next }) {
            command = sub
            path += " \(next)"
            remaining = remaining.dropFirst()
        }
        let parser = ArgumentParser(configuration: command.configuration, commandPath: path)
        do {
            if !command.configuration.subcommands.isEmpty, remaining.isEmpty {
                context.stdout.write(HelpFormatter(configuration: command.configuration, commandPath: path).render())
                return ObjectIdentifier(command) == ObjectIdentifier(root) ? .success : .usage
            }
            if !command.configuration.subcommands.isEmpty, let first = remaining.first, !first.hasPrefix("-") {
                throw UsageError("unknown subcommand '\(first)'", command: path)
            }
            let parsed = try parser.parse(Array(remaining))
            let instance = try command.init(parsed)
            try instance.validate()
            return try await instance.run(context)
        } catch let help as HelpRequest {
            context.stdout.write(help.text)
            return .success
        } catch let usage as UsageError {
            let usageLine = HelpFormatter(configuration: command.configuration, commandPath: path).usage()
            context.stderr.write("error: \(usage.message)\nUsage: \(usageLine)\n  See '\(path) --help'.\n")
            return .usage
        } catch {
            context.stderr.write(ErrorMapping.message(for: error) + "\n")
            return ErrorMapping.status(for: error)
        }
    }
}
