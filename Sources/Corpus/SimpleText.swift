/// `LengthBucket.wordCount` on the bytes of text made only of scalars below U+0590 (Latin, Greek,
/// Cyrillic, Armenian) with no combining mark: there every Character is one scalar (or CR LF, both
/// whitespace), so a table of the scalars' Character properties gives the same count as walking the
/// Characters, at a fraction of the cost. Other text is left to the Character walk (nil).
enum SimpleText {
    private enum Class: UInt8 { case other, whitespace, word, unsafe }

    /// Up to U+058F: the class `Character(scalar)` has (whitespace; letter or number), or `unsafe` for a
    /// scalar that can join the Character before it.
    private static let classes: [Class] = (0..<0x590).map { value in
        guard let scalar = Unicode.Scalar(value) else { return .unsafe }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return .unsafe
        default: break
        }
        if scalar.properties.isGraphemeExtend { return .unsafe }
        let character = Character(scalar)
        if character.isWhitespace { return .whitespace }
        return character.isLetter || character.isNumber ? .word : .other
    }

    static func wordCount(_ text: String) -> Int? {
        var text = text
        // The table taken once per call (not its lazy global's check and a retain per scalar).
        return classes.withUnsafeBufferPointer { classes in text.withUTF8 { bytes -> Int? in
            var count = 0, inWord = false
            var index = 0
            while index < bytes.count {
                let lead = bytes[index]
                let value: Int
                if lead < 0x80 {
                    value = Int(lead)
                    index += 1
                } else if lead & 0xE0 == 0xC0 {
                    value = Int(lead & 0x1F) << 6 | Int(bytes[index + 1] & 0x3F)
                    index += 2
                } else {
                    return nil
                }
                guard value < classes.count else { return nil }
                switch classes[value] {
                case .whitespace:
                    if inWord { count += 1 }
                    inWord = false
                case .word: inWord = true
                case .other: break
                case .unsafe: return nil
                }
            }
            return inWord ? count + 1 : count
        } }
    }
}
