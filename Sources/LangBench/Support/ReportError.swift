import Foundation

/// Writing an output file, or reading back one the run wrote, failed.
public enum ReportError: Error, Sendable, CustomStringConvertible {
    case cannotWrite(path: String, reason: String)
    /// A file the run needs back (a resume log, a shard's output) exists but cannot be read.
    case cannotRead(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason):
            "cannot write \(path) (\(reason)); check the --out directory exists and is writable"
        case .cannotRead(let path, let reason):
            "cannot read \(path) (\(reason)); check its permissions"
        }
    }

    /// Runs a file-system operation on `url`, turning its error into `cannotWrite` with the reason.
    public static func writing<T>(_ url: URL, _ operation: () throws -> T) throws(ReportError) -> T {
        do { return try operation() } catch { throw .cannotWrite(path: url.path, reason: (error as NSError).localizedDescription) }
    }

    /// Runs a file-system operation on `url`, turning its error into `cannotRead` with the reason.
    public static func reading<T>(_ url: URL, _ operation: () throws -> T) throws(ReportError) -> T {
        do { return try operation() } catch { throw .cannotRead(path: url.path, reason: (error as NSError).localizedDescription) }
    }
}
