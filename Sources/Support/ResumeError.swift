/// `--resume` found results on disk that were measured with other configs, settings or item content:
/// mixing them in would make the report misstate what was measured.
package enum ResumeError: Error, Sendable, CustomStringConvertible {
    case mismatch(directory: String, differences: [String])

    package var description: String {
        switch self {
        case .mismatch(let directory, let differences):
            "cannot resume \(directory): its results were measured differently (\(differences.joined(separator: "; "))); "
                + "run without --resume to start afresh, or choose another --out"
        }
    }
}
