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
        .library(name: "LangBench", targets: ["Suite", "Support", "Checks", "Detection", "Generation", "Corpus", "Recognizer",
                                              "Backend", "Comparison", "Provenance"]),
    ],
    targets: [
        // What every other target shares: file and pipe I/O, strict JSON, report tables and writers
        // (Markdown, CSV, JSON, SVG), statistics, SHA-256, Duration units, the error types of the library.
        .target(name: "Support"),
        // Byte-level helpers for the targets that stream per-item data, internal to them: the buffered file writer
        // and the byte sink encoders write into, parallel work taken back in order, the index heap of k-way merges.
        .target(name: "ByteIO", dependencies: ["Support"]),
        // The built-in short-text language recognizer (model format, training, recognition).
        .target(name: "Recognizer", dependencies: ["Support"]),
        // llama-server process management and its HTTP client.
        .target(name: "Backend", dependencies: ["Support", "ByteIO"]),
        // Corpus items: formats, parsing, validation, and the item stream (in id order, spooled when large).
        // Its byte-level machinery stays internal; the layers above see items, corpora and the stream.
        .target(name: "Corpus", dependencies: ["Support", "ByteIO"]),
        // Where a run came from: tool, commit, corpora, host, the machine calibration, the servers of a pool.
        .target(name: "Provenance", dependencies: ["Support", "Corpus"]),
        // What a comparison is made of, below both halves: a checked metric and its typed key, the thresholds, the
        // family-wise correction that splits α between kinds of check, and the items a check lists as moved.
        .target(name: "Checks", dependencies: ["Support"]),
        // Detectors, detection configs, the streaming runner, the per-item results store and the
        // detection report (accuracy, confusion, McNemar). Its encoders and row readers stay internal.
        .target(name: "Detection", dependencies: ["Support", "Corpus", "Recognizer", "Provenance", "ByteIO"]),
        // The reply pipeline (detect, check support, direct or pivot, honest fallback), prompts, the
        // backends it calls, pools of servers, machine calibration, generation records and the report,
        // with the paired checks a report makes between its variants.
        .target(name: "Generation", dependencies: ["Support", "Checks", "Detection", "Corpus", "Backend", "Provenance", "ByteIO"]),
        // `compare`: two runs joined item by item, every check with its threshold and Holm-adjusted p.
        .target(name: "Comparison", dependencies: ["Support", "Checks", "Detection", "Generation", "Corpus", "Provenance"]),
        // The jobs (a detect or generate run end to end), the benchmarks, the suite (bench.json, run, merge, the
        // servers a run uses) and report.html of a run and of a comparison (`Pages/`). No print, no exit.
        .target(name: "Suite", dependencies: ["Support", "Checks", "Detection", "Generation", "Corpus", "Recognizer", "Backend", "Comparison", "Provenance", "ByteIO"]),
        // Commands, argument parsing, progress and exit codes; everything testable without a process.
        .target(name: "LangBenchCLI", dependencies: ["Support", "Checks", "Detection", "Generation", "Corpus", "Suite", "Recognizer", "Backend", "Comparison", "Provenance", "ByteIO"]),
        .executableTarget(name: "langbench", dependencies: ["LangBenchCLI"]),
        // Golden-file and fixture helpers shared by the test targets.
        .target(name: "TestSupport", dependencies: ["Support"], path: "Tests/TestSupport"),
        // Real servers, stub backends and fixed generation records for the tests of Generation and the layers above.
        .target(name: "GenerationTestSupport", dependencies: ["Support", "Detection", "Generation", "Comparison", "Corpus", "Backend", "Provenance", "ByteIO", "TestSupport"],
                path: "Tests/GenerationTestSupport", exclude: ["Fixtures"]),
        .testTarget(name: "RecognizerTests", dependencies: ["Recognizer", "TestSupport"], exclude: ["Fixtures", "Snapshots"]),
        .testTarget(name: "SupportTests", dependencies: ["Support", "ByteIO", "TestSupport"], exclude: ["Snapshots"]),
        .testTarget(name: "ChecksTests", dependencies: ["Support", "Checks"]),
        .testTarget(name: "ByteIOTests", dependencies: ["Support", "ByteIO"]),
        .testTarget(name: "ProvenanceTests", dependencies: ["Provenance", "Corpus"]),
        .testTarget(name: "CorpusTests", dependencies: ["Support", "Corpus", "ByteIO", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "GenerationTests", dependencies: ["Support", "Checks", "Detection", "Generation", "GenerationTestSupport", "Corpus", "Recognizer", "Backend", "Provenance", "ByteIO", "TestSupport"], exclude: ["Snapshots"]),
        .testTarget(name: "ComparisonTests", dependencies: ["Support", "Checks", "Detection", "Generation", "GenerationTestSupport", "Corpus", "Backend", "Comparison", "Provenance", "ByteIO", "TestSupport"], exclude: ["Fixtures", "Snapshots"]),
        .testTarget(name: "DetectionTests", dependencies: ["Support", "Detection", "Corpus", "Recognizer", "Provenance", "ByteIO", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "BackendTests", dependencies: ["Support", "Backend", "ByteIO", "TestSupport"], exclude: ["Helper", "Snapshots"]),
        // Launches a llama-server and waits to be killed: the no-orphan tests kill it and look for the server.
        .executableTarget(name: "llama-backend-test-helper", dependencies: ["Backend", "Support"],
                          path: "Tests/BackendTests/Helper"),
        .testTarget(name: "SuiteTests", dependencies: ["Support", "Checks", "Detection", "Generation", "GenerationTestSupport", "Corpus", "Suite", "Recognizer", "Comparison", "Provenance", "ByteIO", "TestSupport"],
                    exclude: ["Snapshots", "Support/browser-check.py"]),
        .testTarget(name: "LangBenchCLITests", dependencies: ["Support", "Checks", "Detection", "Generation", "Corpus", "Suite", "LangBenchCLI", "Backend", "Comparison", "Provenance", "ByteIO", "TestSupport"], exclude: ["Snapshots"]),
    ],
    swiftLanguageModes: [.v6]
)

// Every file imports the modules whose members it uses (SE-0444): a layer the compiler keeps between targets is
// kept inside them too.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
