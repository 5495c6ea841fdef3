/// A test whose subject is a latency verdict, on a real server, meets one of two cases: the machine stayed steady
/// and the verdict is asserted, or it did not and the product — correctly — left latency unjudged, which the test
/// then asserts instead. Either way the case is printed (`scripts/test` counts them in its summary), so a subject
/// that went unexamined on a loaded machine is never a silent pass.
public enum LatencySubject {
    /// The line `scripts/test` counts.
    public static let marker = "latency-subject:"

    public static func met(judged: Bool, test: String, reason: String = "") {
        print("\(marker) \(test): \(judged ? "judged" : "not judged (\(reason))")")
    }
}
