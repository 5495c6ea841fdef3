import Foundation

/// A corpus of two files (TSV then JSON lines) in id order, for the tests that read a corpus again from
/// its files (`SortedCorpus` replayed) and the detection run over it.
public enum ReplayCorpus {
    /// Two files, TSV then JSON lines, with ids `i00000`, `i00001`, … in order across both (`stepBackAt`
    /// swaps that item with the one before it; `repeatAt` gives that item the id before it).
    public static func write(in directory: URL, items: Int = 1_000, stepBackAt: Int? = nil, repeatAt: Int? = nil) throws -> [String] {
        var ids = (0..<items).map { String(format: "i%05d", $0) }
        if let k = stepBackAt { ids.swapAt(k - 1, k) }
        if let k = repeatAt { ids[k] = ids[k - 1] }
        let half = items / 2
        let tsv = ["id\tlang\ttext\ttags"] + (0..<half).map { "\(ids[$0])\t\(["ru", "uk", "en"][$0 % 3])\tслово \($0)\tt\($0 % 4)" }
        let jsonl = (half..<items).map { #"{"id":"\#(ids[$0])","lang":"bg","text":"дума \#($0)","tags":["u","t\#($0 % 2)"]}"# }
        let first = directory.appendingPathComponent("a.tsv"), second = directory.appendingPathComponent("b.jsonl")
        try (tsv.joined(separator: "\n") + "\n").write(to: first, atomically: true, encoding: .utf8)
        try (jsonl.joined(separator: "\n") + "\n").write(to: second, atomically: true, encoding: .utf8)
        return [first.path, second.path]
    }
}
