/// Renders `--help` from a `CommandConfiguration`, so help can never drift from what parses.
struct HelpFormatter {
    let configuration: CommandConfiguration
    let commandPath: String

    static let helpOption = OptionSpec.flag("help", short: "h", help: "Show help information.")
    private static let column = 28

    func render() -> String {
        var out = "OVERVIEW: \(configuration.abstract)\n"
        if !configuration.discussion.isEmpty {
            out += "\n" + configuration.discussion.split(separator: "\n", omittingEmptySubsequences: false)
                .map { wrap(String($0), width: 100).joined(separator: "\n") }.joined(separator: "\n") + "\n"
        }
        out += "\nUSAGE: \(usage())\n"
        if !configuration.arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for argument in configuration.arguments {
                out += row("<\(argument.name)>" + (argument.isRepeating ? " ..." : ""), argument.help)
            }
        }
        for group in configuration.groups where !group.options.isEmpty {
            out += "\n\(group.title.uppercased()):\n"
            for option in group.options { out += row(label(option), describe(option)) }
        }
        out += "\nOPTIONS:\n" + row(label(Self.helpOption), Self.helpOption.help)
        if !configuration.subcommands.isEmpty {
            out += "\nSUBCOMMANDS:\n"
            for sub in configuration.subcommands {
                out += row(sub.configuration.name, sub.configuration.abstract)
            }
            out += "\n  See '\(commandPath) <subcommand> --help' for detailed help.\n"
        }
        return out
    }

    func usage() -> String {
        if !configuration.subcommands.isEmpty && configuration.arguments.isEmpty {
            return "\(commandPath) <subcommand>"
        }
        var parts = [commandPath]
        for argument in configuration.arguments {
            var text = "<\(argument.name)>" + (argument.isRepeating ? " ..." : "")
            if argument.isOptional { text = "[\(text)]" }
            parts.append(text)
        }
        if !configuration.allOptions.isEmpty { parts.append("[<options>]") }
        return parts.joined(separator: " ")
    }

    private func label(_ option: OptionSpec) -> String {
        var text = option.short.map { "-\($0), " } ?? ""
        text += "--\(option.long)"
        switch option.kind {
        case .flag: break
        case .value(let name): text += " <\(name)>"
        case .repeated(let name): text += " <\(name)> ..."
        }
        return text
    }

    private func describe(_ option: OptionSpec) -> String {
        (option.defaultValue ?? option.computedDefault).map { "\(option.help) (default: \($0))" } ?? option.help
    }

    private func row(_ label: String, _ help: String) -> String {
        let lines = wrap(help, width: 100 - Self.column)
        let first = "  " + label
        var out: String
        if first.count < Self.column {
            out = first + String(repeating: " ", count: Self.column - first.count) + (lines.first ?? "") + "\n"
        } else {
            out = first + "\n" + String(repeating: " ", count: Self.column) + (lines.first ?? "") + "\n"
        }
        for line in lines.dropFirst() { out += String(repeating: " ", count: Self.column) + line + "\n" }
        return out
    }

    private func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty && current.count + 1 + word.count > width {
                lines.append(current)
                current = ""
            }
            current += current.isEmpty ? String(word) : " \(word)"
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
