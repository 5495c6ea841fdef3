import Foundation

/// A file split into physical lines, decoded as UTF-8 one line at a time so that invalid bytes are
/// reported with their line number instead of failing the whole file. A leading BOM and CRLF line
/// ends are removed silently.
struct TextLines {
    struct Line {
        var number: Int
        var text: String
    }

    var lines: [Line] = []
    var invalidUTF8: [Int] = []

    init(data: Data) {
        var start = data.startIndex
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        var number = 0
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var lineStart = start - data.startIndex
            let end = bytes.count
            while lineStart < end {
                var lineEnd = lineStart
                while lineEnd < end && bytes[lineEnd] != 0x0A { lineEnd += 1 }
                number += 1
                var contentEnd = lineEnd
                if contentEnd > lineStart && bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                let slice = UnsafeBufferPointer(rebasing: bytes[lineStart..<contentEnd])
                if let text = String(validating: slice, as: UTF8.self) {
                    lines.append(Line(number: number, text: text))
                } else {
                    invalidUTF8.append(number)
                }
                lineStart = lineEnd + 1
            }
        }
    }
}
