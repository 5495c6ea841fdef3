
/// Declares a command: its name, help text, positional arguments, option groups and subcommands.
/// Parsing and `--help` are both generated from this one declaration.
package struct CommandConfiguration: Sendable {
    package var name: String
    package var abstract: String
    package var discussion: String
    package var arguments: [ArgumentSpec]
    package var groups: [OptionGroup]
    package var subcommands: [any ParsableCommand.Type]

    package init(name: String, abstract: String, discussion: String = "", arguments: [ArgumentSpec] = [],
                groups: [OptionGroup] = [], subcommands: [any ParsableCommand.Type] = []) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.groups = groups
        self.subcommands = subcommands
    }

    var allOptions: [OptionSpec] { groups.flatMap(\.options) }
}

/// A named set of options that several commands share (e.g. corpus options, output options).
package struct OptionGroup: Sendable {
    package var title: String
    package var options: [OptionSpec]

    package init(_ title: String, _ options: [OptionSpec]) {
        self.title = title
        self.options = options
    }
}

/// One `--flag` or `--option value`.
package struct OptionSpec: Sendable {
    package enum Kind: Sendable, Equatable {
        case flag
        case value(String)
        /// May be given more than once; values accumulate.
        case repeated(String)
    }

    package var long: String
    package var short: Character?
    package var kind: Kind
    package var help: String
    /// The value the parser uses when the option is not given, and `--help` shows: the only default.
    package var defaultValue: String?
    /// For an option whose absence means something computed (a timestamp, a file found by search): what
    /// `--help` says. The parser gives no value; the command computes it.
    package var computedDefault: String?

    package static func flag(_ long: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(long: long, short: short, kind: .flag, help: help)
    }

    package static func value(_ long: String, short: Character? = nil, _ valueName: String, help: String,
                             default defaultValue: String? = nil) -> OptionSpec {
        OptionSpec(long: long, short: short, kind: .value(valueName), help: help, defaultValue: defaultValue)
    }

    package static func value(_ long: String, short: Character? = nil, _ valueName: String, help: String,
                             computedDefault: String) -> OptionSpec {
        OptionSpec(long: long, short: short, kind: .value(valueName), help: help, computedDefault: computedDefault)
    }

    package static func repeated(_ long: String, _ valueName: String, help: String) -> OptionSpec {
        OptionSpec(long: long, short: nil, kind: .repeated(valueName), help: help)
    }

    /// A number as a default value: `60`, not `60.0`.
    package static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    var takesValue: Bool { kind != .flag }
}

/// A positional argument.
package struct ArgumentSpec: Sendable {
    package var name: String
    package var help: String
    package var isRepeating: Bool
    package var isOptional: Bool

    package init(_ name: String, help: String, repeating: Bool = false, optional: Bool = false) {
        self.name = name
        self.help = help
        self.isRepeating = repeating
        self.isOptional = optional
    }
}
