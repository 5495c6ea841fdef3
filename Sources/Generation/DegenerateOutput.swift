/// Whether a reply is degenerate: the model stuck in a loop ("Ти, ти, ти, ти, …", one phrase over and
/// over, "ааааааааа…") rather than text a person can read. Such a reply serves no one in any language,
/// so "served in own language" counts it apart (`NotServed.degenerateOutput`); the pipeline still
/// delivers it (no fallback). Deterministic: text in, verdict out.
///
/// The test is one rule, applied to two unit sequences: some block of 1…`maxCycle` units repeats back
/// to back at least `minRepeats` times, and those repeats cover at least `minCoverage` of the text's
/// `minUnits` or more units.
/// - words: runs of letters and digits, case-folded; each CJK ideograph or kana is a word of its own
///   (those scripts write no spaces). Catches a word or a phrase stuck in a loop.
/// - characters: every non-space character, case-folded. Catches one character or syllable stuck
///   ("!!!!!!!!!!", "хахахахахахахаха"), which is one "word".
/// A loop, not word frequency, is the test: a stuck decoder repeats in order, while normal text can
/// use one word often ("да, да, конечно да") without ever cycling.
package struct DegenerateOutput: Sendable, Hashable {
    /// Longest repeating block, in units.
    package var maxCycle: Int
    /// Back-to-back repetitions of the block.
    package var minRepeats: Int
    /// Share of the text's units the repetitions cover.
    package var minCoverage: Double
    /// Shorter texts are never degenerate: "Да, да, да!" is a reply.
    package var minUnits: Int

    /// Words: four repeats of a block of up to eight words covering half of six or more words. No
    /// normal sentence repeats a phrase four times in a row; a 48-token reply stuck in a loop does
    /// it many times (the seed run's "Ти, ти, …" has 24 repeats). Three repeats ("да, да, да") and
    /// short replies stay normal.
    package static let words = DegenerateOutput(maxCycle: 8, minRepeats: 4, minCoverage: 0.5, minUnits: 6)
    /// Characters: eight repeats of one to three characters covering half of ten or more. Words
    /// repeat a letter two or three times ("Ааа!", "Zzz") and laughter a syllable a few times;
    /// eight is far past either.
    package static let characters = DegenerateOutput(maxCycle: 3, minRepeats: 8, minCoverage: 0.5, minUnits: 10)

    /// The rule in one line, for the report's definitions.
    package static var definition: String {
        func rule(_ p: DegenerateOutput, _ unit: String) -> String {
            "a block of 1-\(p.maxCycle) \(unit) repeated back to back \(p.minRepeats)+ times covering \(Int(p.minCoverage * 100))% of \(p.minUnits)+ \(unit)"
        }
        return "model replies stuck in a loop: \(rule(words, "words")), or \(rule(characters, "non-space characters")); delivered (no fallback), never served"
    }

    /// Whether `text` is degenerate by the word rule or the character rule.
    package static func isDegenerate(_ text: String) -> Bool {
        let folded = text.lowercased()
        return words.loops(wordUnits(folded)) || characters.loops(folded.filter { !$0.isWhitespace })
    }

    /// Whether `units` hold a block repeated back to back as these parameters require.
    func loops<Units: Collection>(_ units: Units) -> Bool where Units.Element: Equatable {
        let units = Array(units)
        // Fewer units than repeats hold no loop (and would leave no cycle length to try).
        guard units.count >= max(minUnits, minRepeats, 1), maxCycle >= 1 else { return false }
        for cycle in 1...min(maxCycle, units.count / max(minRepeats, 1)) {
            // `run` counts units equal to the unit one cycle back: a run of r holds r / cycle + 1 repeats.
            var run = 0
            for index in cycle..<units.count {
                run = units[index] == units[index - cycle] ? run + 1 : 0
                let repeats = run / cycle + 1
                if repeats >= minRepeats && Double(repeats * cycle) >= minCoverage * Double(units.count) { return true }
            }
        }
        return false
    }

    /// Runs of letters and digits, each CJK ideograph or kana a word of its own.
    static func wordUnits(_ text: String) -> [Substring] {
        var units: [Substring] = []
        var start: String.Index?
        for index in text.indices {
            let character = text[index]
            let wordy = character.isLetter || character.isNumber
            if !wordy || isUnspaced(character) {
                if let open = start { units.append(text[open..<index]) }
                start = nil
                if wordy { units.append(text[index...index]) }
            } else if start == nil {
                start = index
            }
        }
        if let open = start { units.append(text[open...]) }
        return units
    }

    /// Han ideographs and kana: scripts written without spaces between words.
    static func isUnspaced(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        return scalar.properties.isIdeographic || (0x3040...0x30FF).contains(scalar.value)
    }
}
