/// Parses a command line against a `CommandConfiguration`.
///
/// Accepts `--long value`, `--long=value`, `-s value`, grouped short flags are not supported
/// (there are few short options), `--` ends options, and `-h`/`--help` anywhere asks for help.
struct ArgumentParser {
    let configuration: CommandConfiguration
    /// "langbench corpus validate"
    let commandPath: String

    func parse(_ arguments: [String]) throws -> ParsedArguments {
        var parsed = ParsedArguments(command: commandPath)
        let options = configuration.allOptions
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") || Self.isNegativeNumber(argument) {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; continue }
            if argument == "--help" || argument == "-h" {
                throw HelpRequest(text: HelpFormatter(configuration: configuration, commandPath: commandPath).render())
            }
            var name: Substring
            var inlineValue: String?
            let spec: OptionSpec?
            if argument.hasPrefix("--") {
                name = argument.dropFirst(2)
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = name[..<equals]
                }
                spec = options.first { $0.long == name }
            } else {
                name = argument.dropFirst()
                spec = name.count == 1 ? options.first { $0.short == name.first } : nil
            }
            guard let spec else { throw UsageError("unknown option '\(argument)'", command: commandPath) }
            if !spec.takesValue {
                if inlineValue != nil { throw UsageError("--\(spec.long) takes no value", command: commandPath) }
                parsed.flags.insert(spec.long)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count, !arguments[index].hasPrefix("--") {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError("--\(spec.long) needs a value", command: commandPath)
            }
            if case .repeated = spec.kind {
                parsed.values[spec.long, default: []].append(value)
            } else {
                parsed.values[spec.long] = [value]
            }
        }
        try checkPositionals(parsed.positionals)
        for option in options where parsed.values[option.long] == nil {
            if let value = option.defaultValue { parsed.defaults[option.long] = value }
        }
        return parsed
    }

    private func checkPositionals(_ positionals: [String]) throws {
        let specs = configuration.arguments
        let required = specs.filter { !$0.isOptional }.count
        if positionals.count < required {
            let missing = specs.filter { !$0.isOptional }[positionals.count]
            throw UsageError("missing argument <\(missing.name)>", command: commandPath)
        }
        if !specs.contains(where: \.isRepeating), positionals.count > specs.count {
            throw UsageError("unexpected argument '\(positionals[specs.count])'", command: commandPath)
        }
    }

    private static func isNegativeNumber(_ argument: String) -> Bool {
        argument.count > 1 && Double(argument) != nil
    }
}
