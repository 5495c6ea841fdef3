import Foundation

/// How much of a server's response the client holds at once, and words for a body it will not use.
///
/// A line of a llama-server response is one event: the longest is the final `/completion` event, which
/// echoes the settings and (in some builds) the prompt — at most a context of 32k tokens, well under
/// 1 MiB of UTF-8 even escaped. 4 MiB leaves room for that and still keeps a client that runs several
/// requests at once flat in memory when a server (a wrong `--server-url`, a proxy) streams one endless
/// line: a 128 MB line used to take 520 MB.
enum ResponseLimits {
    /// The most bytes one line of a response body, or one event, may hold.
    static let maxLineBytes = 4 << 20
    /// The most bytes of an error body kept for its message (llama-server's JSON error is far smaller).
    static let maxErrorBodyBytes = 64 << 10
    /// The most bytes kept from the start of a body to tell what it is.
    static let sniffBytes = 512

    /// Counts the bytes of the current line across chunks.
    struct LineGuard {
        var limit = maxLineBytes
        private(set) var current = 0

        /// Adds `bytes`; false once a line holds more than `limit` bytes.
        mutating func admit<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
            var start = bytes.startIndex
            while let newline = bytes[start...].firstIndex(of: 0x0A) {
                if current + bytes.distance(from: start, to: newline) > limit { return false }
                current = 0
                start = bytes.index(after: newline)
            }
            current += bytes.distance(from: start, to: bytes.endIndex)
            return current <= limit
        }
    }

    /// "an HTML page (text/html, 2.3 kB)": what a body is by its type, first bytes and size — never
    /// its text, which may quote the prompt.
    static func describe(contentType: String?, head: Data, size: Int) -> String {
        let type = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let start = String(decoding: head.prefix(sniffBytes), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let kind = if size == 0 { "an empty body" }
            else if type?.contains("html") == true || start.hasPrefix("<!doctype html") || start.hasPrefix("<html") { "an HTML page" }
            else if type?.contains("json") == true || start.hasPrefix("{") || start.hasPrefix("[") { "a JSON document" }
            else if type == "text/plain" { "plain text" }
            else { "a body" }
        return size == 0 ? "\(kind) (\(type ?? "no content type"))" : "\(kind) (\(type ?? "no content type"), \(Self.size(size)))"
    }

    /// "512 bytes", "2.3 kB", "128.0 MB" (decimal units).
    static func size(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) bytes" }
        if bytes < 1_000_000 { return String(format: "%.1f kB", Double(bytes) / 1000) }
        return String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
