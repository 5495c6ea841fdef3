import Foundation

/// Writing an output file, or reading back one the run wrote, failed.
package enum ReportError: Error, Sendable, CustomStringConvertible {
    case cannotWrite(path: String, reason: String)
    /// An output directory cannot be made: `blocker`, a part of its path, is a file.
    case notADirectory(path: String, blocker: String)
    /// A file the run needs back (a resume log, a shard's output) exists but cannot be read.
    case cannotRead(path: String, reason: String)

    package var description: String {
        switch self {
        case .cannotWrite(let path, let reason):
            "cannot write \(path) (\(reason)); check the --out directory exists and is writable"
        case .notADirectory(let path, let blocker):
            "cannot create \(path): \(blocker) is not a directory; move that file away or choose another --out"
        case .cannotRead(let path, let reason):
            "cannot read \(path) (\(reason)); check its permissions"
        }
    }

    /// Runs a file-system operation on `url`, turning its error into `cannotWrite` with the reason.
    package static func writing<T>(_ url: URL, _ operation: () throws -> T) throws(ReportError) -> T {
        do { return try operation() } catch { throw writeFailure(url, error) }
    }

    /// Runs a file-system operation on `url`, turning its error into `cannotRead` with the reason.
    package static func reading<T>(_ url: URL, _ operation: () throws -> T) throws(ReportError) -> T {
        do { return try operation() } catch { throw .cannotRead(path: url.path, reason: FileKind.reason(error, path: url.path)) }
    }

    /// The error for writing (or creating) `url` that failed with `error`: a file where a directory of
    /// the path should be is `notADirectory` naming both; anything else `cannotWrite` in plain words.
    package static func writeFailure(_ url: URL, _ error: Error) -> ReportError {
        if [ENOTDIR, EEXIST].contains(FileKind.posixCode(error)), let blocker = FileKind.fileAncestor(of: url.path) {
            let below = url.path.dropFirst(blocker.count).split(separator: "/").first.map { "\(blocker)/\($0)" } ?? url.path
            return .notADirectory(path: below, blocker: blocker)
        }
        return .cannotWrite(path: url.path, reason: FileKind.reason(error, path: url.path))
    }
}
