/// Receives progress from long-running library work. The library never prints; the CLI turns these
/// calls into a bar or periodic lines on stderr.
public protocol ProgressObserving: Sendable {
    /// A phase with `total` units of work starts (`total` is nil when unknown).
    func begin(_ phase: String, total: Int?)
    /// `count` more units are done.
    func advance(by count: Int)
    /// The phase ended.
    func end()
    /// Something the person running should know that is not progress (e.g. a log converted from an
    /// older format); the CLI prints it on stderr.
    func note(_ message: String)
}

extension ProgressObserving {
    public func note(_ message: String) {}
}

/// Discards progress (tests, `--quiet`).
public struct SilentProgress: ProgressObserving {
    public init() {}
    public func begin(_ phase: String, total: Int?) {}
    public func advance(by count: Int) {}
    public func end() {}
}
