import Foundation
import LangBench
import Synchronization

/// Where a command writes text: stdout for results, stderr for progress and messages.
public protocol TextSink: Sendable {
    func write(_ text: String)
}

/// Writes to a file descriptor (stdout or stderr).
public struct FileDescriptorSink: TextSink {
    let handle: FileHandle

    public static let standardOutput = FileDescriptorSink(handle: .standardOutput)
    public static let standardError = FileDescriptorSink(handle: .standardError)

    public func write(_ text: String) {
        // A closed stdout/stderr (e.g. `| head`) must not crash the run; there is nowhere to report it.
        try? POSIXIO.write(Data(text.utf8), to: handle.fileDescriptor)
    }
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
