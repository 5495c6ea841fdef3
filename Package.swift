// swift-tools-version:6.0
import PackageDescription

// LangBench: a harness that measures short-text language detection and direct-vs-pivot reply
// generation through llama.cpp. The library is split into layers the compiler keeps (a target sees
// only those below it; ARCHITECTURE.md draws the graph). No outside packages: SwiftPM cannot fetch
// them on the machines this is built on.
let package = Package(
    name: "LangBench",
    // macOS 15: Synchronization (Mutex, Atomic) needs it.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "langbench", targets: ["langbench"]),
        // Every module the library's public API is made of, so another package can name the types it gets back.
        // That API is the recognizer and detection jobs over corpora; the targets share the rest as `package`.
        .library(name: "LangBench", targets: ["LangBench", "BenchSupport", "Checks", "Detection", "Generation", "Items", "LanguageRecognition",
                                              "LlamaBackend", "RunComparison", "RunProvenance"]),
    ],
    targets: [
        // What every other target shares: file and pipe I/O, strict JSON, report tables and writers
        // (Markdown, CSV, JSON, SVG), statistics, SHA-256, Duration units, the error types of the library.
        .target(name: "BenchSupport"),
        // Byte-level helpers for the targets that stream per-item data, internal to them: the buffered file writer
        // and the byte sink encoders write into, parallel work taken back in order, the index heap of k-way merges.
        .target(name: "Storage", dependencies: ["BenchSupport"]),
        // The built-in short-text language recognizer (model format, training, recognition).
        .target(name: "LanguageRecognition", dependencies: ["BenchSupport"]),
        // llama-server process management and its HTTP client.
        .target(name: "LlamaBackend", dependencies: ["BenchSupport", "Storage"]),
        // Corpus items: formats, parsing, validation, and the item stream (in id order, spooled when large).
        // Its byte-level machinery stays internal; the layers above see items, corpora and the stream.
        .target(name: "Items", dependencies: ["BenchSupport", "Storage"]),
        // Where a run came from: tool, commit, corpora, host, the machine calibration, the servers of a pool.
        .target(name: "RunProvenance", dependencies: ["BenchSupport", "Items"]),
        // What a comparison is made of, below both halves: a checked metric and its typed key, the thresholds, the
        // family-wise correction that splits α between kinds of check, and the items a check lists as moved.
        .target(name: "Checks", dependencies: ["BenchSupport"]),
        // Detectors, detection configs, the streaming runner, the per-item results store and the
        // detection report (accuracy, confusion, McNemar). Its encoders and row readers stay internal.
        .target(name: "Detection", dependencies: ["BenchSupport", "Items", "LanguageRecognition", "RunProvenance", "Storage"]),
        // The reply pipeline (detect, check support, direct or pivot, honest fallback), prompts, the
        // backends it calls, pools of servers, machine calibration, generation records and the report,
        // with the paired checks a report makes between its variants.
        .target(name: "Generation", dependencies: ["BenchSupport", "Checks", "Detection", "Items", "LlamaBackend", "RunProvenance", "Storage"]),
        // `compare`: two runs joined item by item, every check with its threshold and Holm-adjusted p.
        .target(name: "RunComparison", dependencies: ["BenchSupport", "Checks", "Detection", "Generation", "Items", "RunProvenance"]),
        // The jobs (a detect or generate run end to end), the benchmarks, the suite (bench.json, run, merge, the
        // servers a run uses) and report.html of a run and of a comparison (`Pages/`). No print, no exit.
        .target(name: "LangBench", dependencies: ["BenchSupport", "Checks", "Detection", "Generation", "Items", "LanguageRecognition", "LlamaBackend", "RunComparison", "RunProvenance", "Storage"]),
        // Commands, argument parsing, progress and exit codes; everything testable without a process.
        .target(name: "LangBenchCLI", dependencies: ["BenchSupport", "Checks", "Detection", "Generation", "Items", "LangBench", "LanguageRecognition", "LlamaBackend", "RunComparison", "RunProvenance", "Storage"]),
        .executableTarget(name: "langbench", dependencies: ["LangBenchCLI"]),
        // Golden-file and fixture helpers shared by the test targets.
        .target(name: "TestSupport", dependencies: ["BenchSupport"], path: "Tests/TestSupport"),
        // Real servers, stub backends and fixed generation records for the tests of Generation and the layers above.
        .target(name: "GenerationTestSupport", dependencies: ["BenchSupport", "Detection", "Generation", "Items", "LlamaBackend", "RunProvenance", "Storage", "TestSupport"],
                path: "Tests/GenerationTestSupport", exclude: ["Fixtures"]),
        .testTarget(name: "LanguageRecognitionTests", dependencies: ["LanguageRecognition", "TestSupport"], exclude: ["Fixtures", "Snapshots"]),
        .testTarget(name: "BenchSupportTests", dependencies: ["BenchSupport", "Storage", "TestSupport"], exclude: ["Snapshots"]),
        .testTarget(name: "ChecksTests", dependencies: ["BenchSupport", "Checks"]),
        .testTarget(name: "StorageTests", dependencies: ["BenchSupport", "Storage"]),
        .testTarget(name: "ItemsTests", dependencies: ["BenchSupport", "Items", "Storage", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "GenerationTests", dependencies: ["BenchSupport", "Checks", "Detection", "Generation", "GenerationTestSupport", "Items", "LanguageRecognition", "LlamaBackend", "RunProvenance", "Storage", "TestSupport"], exclude: ["Snapshots"]),
        .testTarget(name: "RunComparisonTests", dependencies: ["BenchSupport", "Checks", "Detection", "Generation", "GenerationTestSupport", "Items", "LlamaBackend", "RunComparison", "RunProvenance", "Storage", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "DetectionTests", dependencies: ["BenchSupport", "Detection", "Items", "LanguageRecognition", "RunProvenance", "Storage", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "LlamaBackendTests", dependencies: ["BenchSupport", "LlamaBackend", "Storage", "TestSupport"], exclude: ["Helper", "Snapshots"]),
        // Launches a llama-server and waits to be killed: the no-orphan tests kill it and look for the server.
        .executableTarget(name: "llama-backend-test-helper", dependencies: ["LlamaBackend"],
                          path: "Tests/LlamaBackendTests/Helper"),
        .testTarget(name: "LangBenchTests", dependencies: ["BenchSupport", "Checks", "Detection", "Generation", "GenerationTestSupport", "Items", "LangBench", "LanguageRecognition", "RunComparison", "RunProvenance", "Storage", "TestSupport"],
                    exclude: ["Snapshots", "Support/browser-check.py"]),
        .testTarget(name: "LangBenchCLITests", dependencies: ["BenchSupport", "Checks", "Detection", "Generation", "Items", "LangBench", "LangBenchCLI", "LlamaBackend", "RunComparison", "RunProvenance", "Storage", "TestSupport"], exclude: ["Snapshots"]),
    ],
    swiftLanguageModes: [.v6]
)

// Every file imports the modules whose members it uses (SE-0444): a layer the compiler keeps between targets is
// kept inside them too.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
