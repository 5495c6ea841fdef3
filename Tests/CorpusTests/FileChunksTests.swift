@testable import Support
import Foundation
@testable import Corpus
import ByteIO
import TestSupport
import Testing

/// `FileChunks` gives a file back as blocks of whole lines, whatever the block size: joined, the blocks
/// are the file; every block but the last ends in a newline; each block's first line number follows the
/// lines before it; the hash is the file's. Over seeded files with short lines, lines longer than several
/// blocks (which grow in the carry), a BOM, a last line without its newline, and an empty file.
struct FileChunksTests {
    @Test func blocksJoinedAreTheFile() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var random = SplitMix64(seed: 12)
        var files: [Data] = [Data(), Data([0x0A]), Data("\u{FEFF}a\nb".utf8)]
        for _ in 0..<12 {
            var bytes: [UInt8] = random.next() % 3 == 0 ? [0xEF, 0xBB, 0xBF] : []
            for _ in 0..<(random.next() % 40) {
                let length = random.next() % 5 == 0 ? Int(random.next() % 300) : Int(random.next() % 12)
                bytes += (0..<length).map { _ in UInt8(0x20 + random.next() % 90) }
                bytes.append(0x0A)
            }
            if random.next() % 2 == 0 { bytes += Array("tail".utf8) }
            files.append(Data(bytes))
        }
        for (k, content) in files.enumerated() {
            let url = directory.appendingPathComponent("f\(k).txt")
            try content.write(to: url)
            for blockSize in [1, 2, 3, 7, 97, 1 << 20] {
                var chunks = try FileChunks(path: url.path, blockSize: blockSize)
                var joined = Data(), line = 1, blocks = 0
                while let block = try chunks.nextBlock() {
                    #expect(block.firstLine == line && block.fileStart == (blocks == 0), "file \(k), block size \(blockSize)")
                    #expect(!block.data.isEmpty)
                    if !joined.isEmpty { #expect(joined.last == 0x0A, "file \(k), block size \(blockSize)") }
                    line += TextLines.lineCount(of: block.data, fileStart: block.fileStart)
                    joined += block.data
                    blocks += 1
                }
                #expect(joined == content, "file \(k), block size \(blockSize)")
                #expect(line - 1 == TextLines(data: content).lineCount, "file \(k), block size \(blockSize)")
                #expect(chunks.sha256 == SHA256.hex(content), "file \(k), block size \(blockSize)")
            }
        }
    }
}
