import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a path is and why a file operation on it failed, in plain words: the one place that turns
/// Foundation's file errors ("NSCocoaErrorDomain error 512", "You don't have permission" for a device
/// as root) into what happened.
package enum FileKind {
    /// "a directory", "a character device", … when `path` exists (symbolic links followed) and is not a
    /// regular file; nil for a regular file or a path that does not exist.
    package static func notRegular(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return switch info.st_mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }

    /// Why an operation on `path` failed: "/a/b is not a directory", "permission denied", "no space left
    /// on the device", "read-only file system", … from the POSIX code under Foundation's error.
    package static func reason(_ error: Error, path: String) -> String {
        guard let code = posixCode(error) else { return (error as NSError).localizedDescription }
        switch code {
        case ENOTDIR:
            if let blocker = fileAncestor(of: path) { return "\(blocker) is not a directory" }
            return "a part of the path is not a directory"
        case EACCES, EPERM: return "permission denied"
        case ENOSPC: return "no space left on the device"
        case EDQUOT: return "disk quota exceeded"
        case EROFS: return "read-only file system"
        case ENOENT: return "no such file or directory"
        case EISDIR: return "is a directory"
        case ENAMETOOLONG: return "file name too long"
        default: return String(cString: strerror(code)).lowercased()
        }
    }

    /// The POSIX error code in `error` or in the chain of errors under it.
    static func posixCode(_ error: Error) -> Int32? {
        if let posix = error as? POSIXError { return posix.code.rawValue }
        // On Linux the underlying error is a Swift `Error`, not an `NSError`, in the user info.
        var current: Error? = error
        while let next = current {
            let nsError = next as NSError
            if nsError.domain == NSPOSIXErrorDomain { return Int32(nsError.code) }
            current = nsError.userInfo[NSUnderlyingErrorKey] as? Error
        }
        return nil
    }

    /// The nearest existing ancestor of `path` that is not a directory, if any.
    static func fileAncestor(of path: String) -> String? {
        var url = URL(fileURLWithPath: path).deletingLastPathComponent()
        while url.path != "/" && !url.path.isEmpty {
            if FileManager.default.fileExists(atPath: url.path) { return notRegular(url.path) == "a directory" ? nil : url.path }
            url.deleteLastPathComponent()
        }
        return nil
    }
}
