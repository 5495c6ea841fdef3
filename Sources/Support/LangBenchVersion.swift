/// The version of LangBench, printed by `--version` and stamped into every report.
package enum LangBenchVersion {
    package static let current = "0.1.0"
}
