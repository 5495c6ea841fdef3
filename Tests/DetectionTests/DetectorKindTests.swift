import Detection
import Testing

struct DetectorKindTests {
    @Test func aSpecNamesItsKind() {
        #expect(DetectorKind("builtin") == .builtin && DetectorKind.builtin.spec == "builtin")
        #expect(DetectorKind("exec:scripts/detectors/lingua --flag") == .exec(command: "scripts/detectors/lingua --flag"))
        #expect(DetectorKind.exec(command: "x y").spec == "exec:x y" && DetectorKind("exec:x")?.isExec == true && !DetectorKind.builtin.isExec)
        #expect(DetectorKind("apple") == .apple && DetectorKind("oracle") == .oracle && DetectorKind.oracle.spec == "oracle")
        for spec in ["", "Builtin", "Oracle", "exec"] { #expect(DetectorKind(spec) == nil, "\(spec)") }
    }

    /// A suite's `judge` is the built-in recognizer or a command; the oracle knows only the corpus label.
    @Test func onlyTheRecognizerOrACommandJudgesReplies() {
        #expect(DetectorKind.builtin.canJudge && DetectorKind.exec(command: "x").canJudge)
        #expect(!DetectorKind.oracle.canJudge && !DetectorKind.apple.canJudge)
    }
}
