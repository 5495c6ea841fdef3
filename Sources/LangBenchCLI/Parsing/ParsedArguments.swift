import Foundation

/// The options and positionals found on a command line, with the declared defaults of options not
/// given, and typed accessors that throw `UsageError`s naming the flag.
package struct ParsedArguments: Sendable {
    package let command: String
    var flags: Set<String> = []
    var values: [String: [String]] = [:]
    /// Declared defaults (`OptionSpec.defaultValue`) of value options not on the command line.
    var defaults: [String: String] = [:]
    package internal(set) var positionals: [String] = []

    package init(command: String) {
        self.command = command
    }

    package func flag(_ long: String) -> Bool { flags.contains(long) }

    /// Whether `--long` was on the command line (not just defaulted).
    package func isGiven(_ long: String) -> Bool { values[long] != nil }

    /// The last value given for `long`, else its declared default, else nil.
    package func value(_ long: String) -> String? { values[long]?.last ?? defaults[long] }

    /// Every value given for a repeated option, in order.
    package func values(_ long: String) -> [String] { values[long] ?? [] }

    /// The value of an option that has a declared default (so it always has one).
    package func string(_ long: String) throws -> String {
        guard let raw = value(long) else { throw UsageError("--\(long) needs a value", command: command) }
        return raw
    }

    package func int(_ long: String, range: ClosedRange<Int> = 0...Int.max) throws -> Int {
        guard let number = try optionalInt(long, range: range) else { throw UsageError("--\(long) needs a value", command: command) }
        return number
    }

    /// The option's whole number, or nil when it is neither given nor defaulted.
    package func optionalInt(_ long: String, range: ClosedRange<Int> = 0...Int.max) throws -> Int? {
        guard let raw = value(long) else { return nil }
        guard let number = Int(raw), range.contains(number) else {
            throw UsageError("--\(long) takes a whole number in \(range.lowerBound)...\(range.upperBound == .max ? "" : String(range.upperBound)), not '\(raw)'", command: command)
        }
        return number
    }

    package func double(_ long: String) throws -> Double {
        guard let raw = value(long) else { throw UsageError("--\(long) needs a value", command: command) }
        guard let number = Double(raw), number.isFinite else {
            throw UsageError("--\(long) takes a number, not '\(raw)'", command: command)
        }
        return number
    }

    /// A number of seconds in (0, one day]: larger values would overflow the clock arithmetic, and no
    /// request or item should wait longer.
    package func seconds(_ long: String) throws -> Double {
        let number = try double(long)
        guard number > 0 && number <= Self.maxSeconds else {
            throw UsageError("--\(long) takes seconds in (0, \(Int(Self.maxSeconds))], not '\(value(long) ?? "")'", command: command)
        }
        return number
    }

    static let maxSeconds: Double = 86_400

    /// A value from a fixed set (e.g. `--route auto|direct|pivot|both`), or nil when neither given nor defaulted.
    package func optionalChoice<T: RawRepresentable & CaseIterable>(_ long: String, as type: T.Type = T.self) throws -> T? where T.RawValue == String {
        guard let raw = value(long) else { return nil }
        guard let chosen = T(rawValue: raw) else {
            let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("--\(long) must be one of \(allowed), not '\(raw)'", command: command)
        }
        return chosen
    }

    package func choice<T: RawRepresentable & CaseIterable>(_ long: String, as type: T.Type = T.self) throws -> T where T.RawValue == String {
        guard let chosen = try optionalChoice(long, as: type) else { throw UsageError("--\(long) needs a value", command: command) }
        return chosen
    }

    /// Comma-separated values across every occurrence of `long`.
    package func list(_ long: String) -> [String] {
        values(long).flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
