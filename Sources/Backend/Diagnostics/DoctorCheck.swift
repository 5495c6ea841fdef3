/// One line of `langbench doctor`: what was checked, how it went, and what to run if it failed.
package struct DoctorCheck: Sendable, Equatable, Codable {
    package enum Status: String, Sendable, Codable {
        case passed, failed
        /// Not checked because something it needs failed first.
        case skipped
    }

    /// Short stable name, e.g. `llama-server`, `model`, `server`.
    package var name: String
    package var status: Status
    /// What was found (paths, version, timings) — never message content.
    package var detail: String
    /// The command that fixes a failure.
    package var fix: String?
    /// Whether the default run needs this check to pass.
    package var required: Bool

    package init(name: String, status: Status, detail: String, fix: String? = nil, required: Bool = true) {
        self.name = name
        self.status = status
        self.detail = detail
        self.fix = fix
        self.required = required
    }
}

extension Array where Element == DoctorCheck {
    /// Every required check passed.
    package var allRequiredPassed: Bool {
        allSatisfy { !$0.required || $0.status == .passed }
    }

    /// The fix commands of the failed checks, in order, without repeats.
    package var fixes: [String] {
        var seen = Set<String>()
        return compactMap { check in
            guard check.status != .passed, let fix = check.fix, seen.insert(fix).inserted else { return nil }
            return fix
        }
    }
}
