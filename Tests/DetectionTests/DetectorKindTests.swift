import Detection
import Testing

struct DetectorKindTests {
    @Test func aSpecNamesItsKind() {
        #expect(DetectorKind("builtin") == .builtin && DetectorKind.builtin.spec == "builtin")
        #expect(DetectorKind("exec:scripts/detectors/lingua --flag") == .exec(command: "scripts/detectors/lingua --flag"))
        #expect(DetectorKind.exec(command: "x y").spec == "exec:x y" && DetectorKind("exec:x")?.isExec == true && !DetectorKind.builtin.isExec)
        for spec in ["", "Builtin", "apple", "oracle", "exec"] { #expect(DetectorKind(spec) == nil, "\(spec)") }
    }
}
