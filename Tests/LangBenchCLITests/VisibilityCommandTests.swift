import Foundation
import LangBenchCLI
import TestSupport
import Testing

/// The committed baseline against itself: the verdict opens with what the compare can see, each figure at the level
/// the change it names would be tested at.
struct VisibilityCommandTests {
    @Test func anAAOfTheBaselineSaysWhatItCanSee() async throws {
        let baseline = CommandFixtures.path("Reports/baseline")
        let result = await runCommand(["compare", baseline, baseline, "--latency", "same-runner"])
        #expect(result.status == .success, "\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("**What this compare can see**") })
        // Detection would have 2/6 of α = 0.0167 (weights 2, 2, 1, 1); a recognizer change moving one language in the 3
        // configs makes 6 correlated checks testable: 0.0167 / 6 = 0.0028, so ⌈log₂(360)⌉ = 9 of 45 items.
        #expect(line.contains("a 45-item language's accuracy in all 3 configs at once: 20.00 points (9 of 45 items); 2.0 points needs about "), "\(line)")
        #expect(line.contains("a 12-person language's service: "), "\(line)")
    }
}
