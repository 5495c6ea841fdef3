import Support
import Foundation
import Corpus

/// Where a report came from: enough to reproduce it or to refuse comparing unlike runs.
public struct Provenance: Sendable, Codable, Hashable {
    package var tool: String
    package var toolVersion: String
    package var gitCommit: String?
    package var command: [String]
    package var corpora: [CorpusSource]
    package var host: Host
    package var startedAt: String
    package var finishedAt: String?
    /// The speed of the machine and server generation ran on (absent for detection-only runs).
    package var calibration: MachineCalibration?
    /// The shard (`K/N`) of the corpus this run measured, when it ran one.
    package var shard: String?
    /// A merged run: the shard of each part in the order merged. Each part ran as one block of time,
    /// so `compare` resamples blocks as well as items (machine drift between blocks is in the interval).
    package var blocks: [String]?
    /// How often a launched llama-server died during the run and was restarted (absent when it never did).
    package var serverRestarts: Int?
    /// A run over a pool of servers (`--server-url` given several times): each server, in order (absent on one server).
    package var servers: [PoolServer]?
    /// Corpora the suite names as built at set-up (`optional_corpora`) that were not there: the run went on without them.
    package var missingCorpora: [String]?

    /// The machine a run measured on.
    package struct Host: Sendable, Codable, Hashable {
        package var cpu: String
        package var cores: Int
        package var memoryGiB: Double
        package var os: String
        /// The CPU's SIMD features that change what llama.cpp computes (`avx2`, `avx512f`, …): two machines the model
        /// name calls alike sample differently when these differ. Absent where the system does not say (not Linux).
        package var cpuFeatures: [String]?

        package init(cpu: String, cores: Int, memoryGiB: Double, os: String, cpuFeatures: [String]? = nil) {
            self.cpu = cpu
            self.cores = cores
            self.memoryGiB = memoryGiB
            self.os = os
            self.cpuFeatures = cpuFeatures
        }

        package static func current() -> Host {
            let info = ProcessInfo.processInfo
            return Host(cpu: cpuModel() ?? "unknown", cores: info.activeProcessorCount,
                        memoryGiB: (Double(info.physicalMemory) / 1_073_741_824 * 10).rounded() / 10,
                        os: info.operatingSystemVersionString, cpuFeatures: cpuFeatureFlags())
        }

        /// The SIMD families ggml picks kernels by, as /proc/cpuinfo names them.
        static let simdFlags: Set<String> = ["sse3", "ssse3", "sse4_1", "sse4_2", "avx", "avx2", "fma", "f16c", "bmi2", "avx_vnni",
                                             "avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512_vnni", "avx512_bf16", "avx512vbmi",
                                             "amx_tile", "amx_int8", "amx_bf16", "asimd", "sve", "sve2", "i8mm", "asimddp"]

        private static func cpuFeatureFlags() -> [String]? {
            guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }  // not Linux: unknown
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("flags") || $0.hasPrefix("Features") }),
                  let flags = line.split(separator: ":", maxSplits: 1).last else { return nil }
            return Set(flags.split(separator: " ").map(String.init)).intersection(simdFlags).sorted()
        }

        private static func cpuModel() -> String? {
            guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }  // not Linux: unknown
            return text.split(separator: "\n").first { $0.hasPrefix("model name") }
                .flatMap { $0.split(separator: ":", maxSplits: 1).last }
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    package init(command: [String], corpora: [CorpusSource], startedAt: Date = Date(), gitCommit: String? = Provenance.gitCommit()) {
        tool = "langbench"
        toolVersion = LangBenchVersion.current
        self.gitCommit = gitCommit
        self.command = command
        self.corpora = corpora
        host = .current()
        self.startedAt = Self.timestamp(startedAt)
    }

    package mutating func finish(at date: Date = Date()) {
        finishedAt = Self.timestamp(date)
    }

    package static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// The commit of the working tree LangBench runs in, or nil outside a git checkout.
    package static func gitCommit(in directory: String = FileManager.default.currentDirectoryPath) -> String? {
        GitHead.commit(in: directory)
    }
}

/// What a run says of a corpus its suite names as built at set-up that was not there.
package enum MissingCorpus {
    package static func sentence(_ path: String) -> String {
        "\(path) was not there, so detection ran without it: it is built at set-up (scripts/setup, or scripts/setup-outside-corpus alone)"
    }
}
