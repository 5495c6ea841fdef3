/// The version of LangBench, printed by `--version` and stamped into every report.
public enum LangBenchVersion {
    public static let current = "0.1.0"
}
