// swift-tools-version:6.0
import PackageDescription

// LangBench: a harness that measures short-text language detection and direct-vs-pivot reply
// generation through llama.cpp. Domains that stand on their own (the recognizer, the llama.cpp
// backend) are separate targets so the compiler keeps them free of harness concerns.
let package = Package(
    name: "LangBench",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "langbench", targets: ["langbench"]),
        .library(name: "LangBench", targets: ["LangBench"]),
    ],
    targets: [
        // The built-in short-text language recognizer (model format, training, recognition).
        .target(name: "LanguageRecognition"),
        // llama-server process management and its HTTP client.
        .target(name: "LlamaBackend"),
        // Corpora, detection and generation evaluation, reports, comparison. No print, no exit.
        .target(name: "LangBench", dependencies: ["LanguageRecognition", "LlamaBackend"]),
        // Commands, argument parsing, progress and exit codes; everything testable without a process.
        .target(name: "LangBenchCLI", dependencies: ["LangBench", "LanguageRecognition", "LlamaBackend"]),
        .executableTarget(name: "langbench", dependencies: ["LangBenchCLI"]),
        // Golden-file and fixture helpers shared by the test targets.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "LanguageRecognitionTests", dependencies: ["LanguageRecognition", "TestSupport"]),
        .testTarget(name: "LlamaBackendTests", dependencies: ["LlamaBackend", "TestSupport"], exclude: ["Helper"]),
        // Launches a llama-server and waits to be killed: the no-orphan tests kill it and look for the server.
        .executableTarget(name: "llama-backend-test-helper", dependencies: ["LlamaBackend"],
                          path: "Tests/LlamaBackendTests/Helper"),
        .testTarget(name: "LangBenchTests", dependencies: ["LangBench", "LanguageRecognition", "TestSupport"]),
        .testTarget(name: "LangBenchCLITests", dependencies: ["LangBenchCLI", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
