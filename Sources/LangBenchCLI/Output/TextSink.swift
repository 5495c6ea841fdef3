import BenchSupport
import Foundation
import Synchronization

/// Where a command writes text: stdout for results, stderr for progress and messages.
public protocol TextSink: Sendable {
    func write(_ text: String)
    /// The first write that failed (a full disk, a closed pipe), if any: `CommandRunner` turns it into
    /// exit 69 so a truncated result never exits 0.
    var failure: String? { get }
}

extension TextSink {
    public var failure: String? { nil }
}

/// Writes to a file descriptor (stdout or stderr). A failed write is remembered, not thrown: the
/// command finishes its work and `CommandRunner` reports the failure once.
public final class FileDescriptorSink: TextSink {
    let descriptor: Int32
    private let firstFailure = Mutex<String?>(nil)

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    public static let standardOutput = FileDescriptorSink(descriptor: 1)
    public static let standardError = FileDescriptorSink(descriptor: 2)

    public func write(_ text: String) {
        do {
            try POSIXIO.write(Data(text.utf8), to: descriptor)
        } catch {
            firstFailure.withLock { $0 = $0 ?? (error as NSError).localizedDescription }
        }
    }

    public var failure: String? { firstFailure.withLock { $0 } }
}

/// Collects text in memory (tests).
public final class BufferSink: TextSink {
    private let storage = Mutex("")

    public init() {}

    public func write(_ text: String) {
        storage.withLock { $0 += text }
    }

    public var text: String { storage.withLock { $0 } }
}

/// Passes everything through `Redaction.text` on its way to `base`: stderr carries error messages that
/// name URLs (with whatever user, password or query they were given) and, in principle, a server's words.
public struct RedactingSink: TextSink {
    public let base: any TextSink

    public init(_ base: any TextSink) {
        self.base = base
    }

    public func write(_ text: String) {
        base.write(Redaction.text(text))
    }

    public var failure: String? { base.failure }
}
