import Support
import Foundation

/// Reads one JSON object per line.
enum JSONLReader {
    private struct Line: Decodable {
        var id: String?
        var lang: String?
        var text: String?
        var tags: [String]?
        var history: [Turn]?
    }

    static func read(lines: [TextLines.Line], file: String) -> FileReadResult {
        var result = FileReadResult()
        let decoder = JSONDecoder()
        for line in lines where !line.text.trimmingCharacters(in: .whitespaces).isEmpty {
            let location = SourceLocation(file: file, line: line.number)
            let data = Data(line.text.utf8)
            do {
                let object = try decoder.decode(Line.self, from: data)
                result.records.append(RawRecord(location: location, id: object.id, lang: object.lang,
                                                text: object.text, tags: object.tags ?? [], history: object.history))
            } catch {
                // Foundation says only "not valid JSON": the scan gives the column and what is wrong there.
                let detail = JSONSyntax.scan(data).failure.map {
                    "invalid JSON at column \(JSONSyntax.lineAndColumn(of: $0.offset, in: [UInt8](data)).column): \($0.reason)"
                } ?? JSONErrorText.describe(error)
                result.problems.append(CorpusProblem(location, "not a JSON object with id, lang, text (\(detail))"))
            }
        }
        return result
    }
}
