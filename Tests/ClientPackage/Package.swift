// swift-tools-version:6.0
import PackageDescription

// Another package that depends on LangBench by path, as an app's tooling would: `ClientPackageTests` builds and runs
// it, so the library product stays usable from outside (every type its API returns is importable).
let package = Package(
    name: "LangBenchClient",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "LangBench", path: "../..")],
    targets: [
        .executableTarget(name: "langbench-client", dependencies: [.product(name: "LangBench", package: "LangBench")]),
    ],
    swiftLanguageModes: [.v6]
)
