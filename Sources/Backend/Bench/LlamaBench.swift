import Support
import Foundation

/// llama.cpp's own benchmark (`llama-bench`), run on the same model and threads as the server for
/// reference figures.
package struct LlamaBenchResult: Sendable, Equatable, Codable {
    /// Prompt tokens of a prompt-processing test (0 for a generation test).
    package var promptTokens: Int
    /// Generated tokens of a generation test (0 for a prompt-processing test).
    package var generatedTokens: Int
    package var threads: Int
    /// Tokens per second of every repetition, and their median.
    package var samplesPerSecond: [Double]
    package var medianPerSecond: Double
    /// e.g. `b11434 (11434)`.
    package var build: String
}

enum LlamaBench {
    /// Runs `llama-bench -p promptTokens -n generatedTokens -r repetitions -o json`.
    static func run(binary: String, model: String, threads: Int, promptTokens: Int, generatedTokens: Int,
                    repetitions: Int, timeout: Double = 900) async throws -> [LlamaBenchResult] {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw BackendError.binaryNotFound(path: binary)
        }
        let arguments = ["-m", model, "-t", String(threads), "-p", String(promptTokens), "-n", String(generatedTokens),
                         "-r", String(repetitions), "-o", "json"]
        let output = try await ProcessRunner.run(binary, arguments, timeout: timeout)
        let command = ([binary] + arguments).joined(separator: " ")
        guard output.status == 0 else {
            throw BackendError.commandFailed(command: command, reason: "exited with status \(output.status)",
                                             outputTail: output.standardError.split(separator: "\n").suffix(5).map(String.init))
        }
        return try parse(Data(output.standardOutput.utf8), command: command)
    }

    /// Joins the results of several runs test by test (same prompt and generation lengths), in first-seen order.
    static func merge(_ results: [LlamaBenchResult]) -> [LlamaBenchResult] {
        var merged: [LlamaBenchResult] = []
        for result in results {
            if let index = merged.firstIndex(where: { $0.promptTokens == result.promptTokens
                && $0.generatedTokens == result.generatedTokens }) {
                merged[index].samplesPerSecond += result.samplesPerSecond
                merged[index].medianPerSecond = merged[index].samplesPerSecond.median ?? 0
            } else {
                merged.append(result)
            }
        }
        return merged
    }

    struct Row: Decodable {
        let build_commit: String
        let build_number: Int
        let n_threads: Int
        let n_prompt: Int
        let n_gen: Int
        let samples_ts: [Double]
    }

    static func parse(_ json: Data, command: String) throws -> [LlamaBenchResult] {
        let rows: [Row]
        do {
            rows = try JSONDecoder().decode([Row].self, from: json)
        } catch {
            throw BackendError.commandFailed(command: command, reason: "printed no llama-bench JSON (\(error))",
                                             outputTail: [])
        }
        return rows.map { row in
            LlamaBenchResult(promptTokens: row.n_prompt, generatedTokens: row.n_gen, threads: row.n_threads,
                             samplesPerSecond: row.samples_ts, medianPerSecond: row.samples_ts.median ?? 0,
                             build: "\(row.build_commit) (\(row.build_number))")
        }
    }
}
