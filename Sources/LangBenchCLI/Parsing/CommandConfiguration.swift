
/// Declares a command: its name, help text, positional arguments, option groups and subcommands.
/// Parsing and `--help` are both generated from this one declaration.
public struct CommandConfiguration: Sendable {
    public var name: String
    public var abstract: String
    public var discussion: String
    public var arguments: [ArgumentSpec]
    public var groups: [OptionGroup]
    public var subcommands: [any ParsableCommand.Type]

    public init(name: String, abstract: String, discussion: String = "", arguments: [ArgumentSpec] = [],
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
public struct OptionGroup: Sendable {
    public var title: String
    public var options: [OptionSpec]

    public init(_ title: String, _ options: [OptionSpec]) {
        self.title = title
        self.options = options
    }
}

/// One `--flag` or `--option value`.
public struct OptionSpec: Sendable {
    public enum Kind: Sendable, Equatable {
        case flag
        case value(String)
        /// May be given more than once; values accumulate.
        case repeated(String)
    }

    public var long: String
    public var short: Character?
    public var kind: Kind
    public var help: String
    /// The value the parser uses when the option is not given, and `--help` shows: the only default.
    public var defaultValue: String?
    /// For an option whose absence means something computed (a timestamp, a file found by search): what
    /// `--help` says. The parser gives no value; the command computes it.
    public var computedDefault: String?

    public static func flag(_ long: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(long: long, short: short, kind: .flag, help: help)
    }

    public static func value(_ long: String, short: Character? = nil, _ valueName: String, help: String,
                             default defaultValue: String? = nil) -> OptionSpec {
        OptionSpec(long: long, short: short, kind: .value(valueName), help: help, defaultValue: defaultValue)
    }

    public static func value(_ long: String, short: Character? = nil, _ valueName: String, help: String,
                             computedDefault: String) -> OptionSpec {
        OptionSpec(long: long, short: short, kind: .value(valueName), help: help, computedDefault: computedDefault)
    }

    public static func repeated(_ long: String, _ valueName: String, help: String) -> OptionSpec {
        OptionSpec(long: long, short: nil, kind: .repeated(valueName), help: help)
    }

    /// A number as a default value: `60`, not `60.0`.
    public static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    var takesValue: Bool { kind != .flag }
}

/// A positional argument.
public struct ArgumentSpec: Sendable {
    public var name: String
    public var help: String
    public var isRepeating: Bool
    public var isOptional: Bool

    public init(_ name: String, help: String, repeating: Bool = false, optional: Bool = false) {
        self.name = name
        self.help = help
        self.isRepeating = repeating
        self.isOptional = optional
    }
}
