/// The options and positionals found on a command line, with typed accessors that throw
/// `UsageError`s naming the flag.
public struct ParsedArguments: Sendable {
    public let command: String
    var flags: Set<String> = []
    var values: [String: [String]] = [:]
    public internal(set) var positionals: [String] = []

    public init(command: String) {
        self.command = command
    }

    public func flag(_ long: String) -> Bool { flags.contains(long) }

    /// The last value given for `long`, or nil.
    public func value(_ long: String) -> String? { values[long]?.last }

    /// Every value given for a repeated option, in order.
    public func values(_ long: String) -> [String] { values[long] ?? [] }

    public func int(_ long: String, default fallback: Int, range: ClosedRange<Int> = 0...Int.max) throws -> Int {
        guard let raw = value(long) else { return fallback }
        guard let number = Int(raw), range.contains(number) else {
            throw UsageError("--\(long) takes a whole number in \(range.lowerBound)...\(range.upperBound == .max ? "" : String(range.upperBound)), not '\(raw)'", command: command)
        }
        return number
    }

    public func double(_ long: String, default fallback: Double) throws -> Double {
        guard let raw = value(long) else { return fallback }
        guard let number = Double(raw), number.isFinite else {
            throw UsageError("--\(long) takes a number, not '\(raw)'", command: command)
        }
        return number
    }

    /// A value from a fixed set (e.g. `--route auto|direct|pivot|both`).
    public func choice<T: RawRepresentable & CaseIterable>(_ long: String, default fallback: T) throws -> T where T.RawValue == String {
        guard let raw = value(long) else { return fallback }
        guard let chosen = T(rawValue: raw) else {
            let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("--\(long) must be one of \(allowed), not '\(raw)'", command: command)
        }
        return chosen
    }

    /// Comma-separated values across every occurrence of `long`.
    public func list(_ long: String) -> [String] {
        values(long).flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
