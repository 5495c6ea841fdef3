import Foundation
import Testing

/// The README's headline figures have one home: each row links the section of docs/benchmarks.md that dates them, and
/// every number of its figure is in that section, so a figure changed in one place and not the other fails here.
struct HeadlineFiguresTests {
    /// GitHub's anchor of a heading: lower case, letters, digits, `-` and `_` kept, spaces as `-`, the rest dropped.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().compactMap { $0 == " " ? "-" : ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : nil })
    }

    /// The numbers in a text as written without thousands separators (`475,000` → `475000`, `2.50×` → `2.50`).
    static func numbers(_ text: String) -> Set<String> {
        let pattern = try! NSRegularExpression(pattern: #"\d[\d,]*(?:\.\d+)?"#)  // a literal pattern: it compiles
        return Set(pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            var number = String(text[Range(match.range, in: text)!]).replacingOccurrences(of: ",", with: "")
            while number.hasSuffix(".") { number.removeLast() }
            return number
        })
    }

    /// docs/benchmarks.md's sections (## and ###, each with its subsections' text) by anchor.
    static func sections(_ text: String) -> [String: String] {
        let lines = text.components(separatedBy: "\n")
        var out: [String: String] = [:]
        for (index, line) in lines.enumerated() where line.hasPrefix("## ") || line.hasPrefix("### ") {
            let level = line.prefix { $0 == "#" }.count
            let end = lines[(index + 1)...].firstIndex { next in next.hasPrefix("#") && next.prefix { $0 == "#" }.count <= level && next.dropFirst(next.prefix { $0 == "#" }.count).hasPrefix(" ") } ?? lines.count
            out[anchor(String(line.dropFirst(level + 1)))] = lines[index..<end].joined(separator: "\n")
        }
        return out
    }

    @Test func everyHeadlineFigureIsInTheBenchmarksSectionItLinks() throws {
        let root = CommandFixtures.repository
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let benchmarks = Self.sections(try String(contentsOf: root.appendingPathComponent("docs/benchmarks.md"), encoding: .utf8))
        let table = try #require(readme.components(separatedBy: "## How accurate, how fast").dropFirst().first?.components(separatedBy: "\n## ").first)
        let rows = table.components(separatedBy: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| what") && !$0.hasPrefix("| ---") }
        try #require(rows.count >= 8, "the headline table has \(rows.count) rows")
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let link = try #require(cells[2].range(of: #"docs/benchmarks\.md#[a-z0-9_-]+"#, options: .regularExpression), "no benchmarks link: \(cells[0])")
            let anchor = String(cells[2][link].dropFirst("docs/benchmarks.md#".count))
            let section = try #require(benchmarks[anchor], "\(cells[0]): no section #\(anchor) in docs/benchmarks.md")
            let missing = Self.numbers(cells[1]).subtracting(Self.numbers(section))
            #expect(missing.isEmpty, "\(cells[0]): \(missing.sorted()) not in docs/benchmarks.md#\(anchor)")
        }
    }

    @Test func anchorsAreGitHubs() {
        #expect(Self.anchor("The token gate across two CPUs (`scripts/measure-token-gate`)") == "the-token-gate-across-two-cpus-scriptsmeasure-token-gate")
        #expect(Self.numbers("475,000 words/s; 2.50× and 0.0–27.8%.") == ["475000", "2.50", "0.0", "27.8"])
    }
}
