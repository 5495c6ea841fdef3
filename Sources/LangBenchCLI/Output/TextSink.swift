import Support
import Foundation
import Synchronization

/// Where a command writes text: stdout for results, stderr for progress and messages.
package protocol TextSink: Sendable {
    func write(_ text: String)
    /// The first write that failed (a full disk, a closed pipe), if any: `CommandRunner` turns it into
    /// exit 69 so a truncated result never exits 0.
    var failure: String? { get }
}

extension TextSink {
    package var failure: String? { nil }
}

/// Writes to a file descriptor (stdout or stderr). A failed write is remembered, not thrown: the
/// command finishes its work and `CommandRunner` reports the failure once.
package final class FileDescriptorSink: TextSink {
    let descriptor: Int32
    private let firstFailure = Mutex<String?>(nil)

    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    package static let standardOutput = FileDescriptorSink(descriptor: 1)
    package static let standardError = FileDescriptorSink(descriptor: 2)

    package func write(_ text: String) {
        do {
            try POSIXIO.write(Data(text.utf8), to: descriptor)
        } catch {
            firstFailure.withLock { $0 = $0 ?? (error as NSError).localizedDescription }
        }
    }

    package var failure: String? { firstFailure.withLock { $0 } }
}

/// Collects text in memory (tests).
package final class BufferSink: TextSink {
    private let storage = Mutex("")

    package init() {}

    package func write(_ text: String) {
        storage.withLock { $0 += text }
    }

    package var text: String { storage.withLock { $0 } }
}

/// Passes everything through `Redaction.text` on its way to `base`: stderr carries error messages that
/// name URLs (with whatever user, password or query they were given) and, in principle, a server's words.
package struct RedactingSink: TextSink {
    package let base: any TextSink

    package init(_ base: any TextSink) {
        self.base = base
    }

    package func write(_ text: String) {
        base.write(Redaction.text(text))
    }

    package var failure: String? { base.failure }
}
