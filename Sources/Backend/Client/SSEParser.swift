import Foundation

/// Splits a server-sent-events byte stream into the payloads of its `data:` fields.
///
/// Bytes may arrive cut anywhere (even inside a UTF-8 sequence), so lines are cut on raw bytes and
/// decoded only when complete. Comments (`:` pings) and other fields are ignored.
struct SSEParser: Sendable {
    private var buffer: [UInt8] = []
    private var dataLines: [String] = []
    private var dataBytes = 0
    /// Whether any `data:` field was seen.
    private(set) var sawData = false
    /// Set once an event's data passed `ResponseLimits.maxLineBytes`; its lines are no longer kept.
    private(set) var oversized = false

    /// Feeds bytes; returns the events completed by them, in order.
    mutating func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [String] {
        var events: [String] = []
        for byte in bytes {
            guard byte == UInt8(ascii: "\n") else {
                buffer.append(byte)
                continue
            }
            if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
            let line = String(decoding: buffer, as: UTF8.self)
            buffer.removeAll(keepingCapacity: true)
            if let event = take(line) { events.append(event) }
        }
        return events
    }

    /// Ends the stream: a final event without its blank line still counts; returns it and whether
    /// bytes were left over that never formed a complete line.
    mutating func finish() -> (event: String?, danglingBytes: Bool) {
        let dangling = !buffer.isEmpty
        if dangling {
            _ = take(String(decoding: buffer, as: UTF8.self))
            buffer.removeAll()
        }
        let event = dataLines.isEmpty ? nil : dataLines.joined(separator: "\n")
        dataLines.removeAll()
        return (event, dangling)
    }

    private mutating func take(_ line: String) -> String? {
        if line.isEmpty {
            defer { dataLines.removeAll(); dataBytes = 0 }
            return dataLines.isEmpty ? nil : dataLines.joined(separator: "\n")
        }
        if line.hasPrefix("data:") {
            var value = line.dropFirst(5)
            if value.first == " " { value = value.dropFirst() }
            sawData = true
            dataBytes += value.utf8.count + 1
            if dataBytes > ResponseLimits.maxLineBytes { oversized = true }
            if !oversized { dataLines.append(String(value)) }
        }
        return nil
    }
}
