/// Message length classes used to slice results: 1 word, 2–3, 4–8, 9+.
///
/// Japanese and Chinese are written without spaces, so their length is counted in characters and
/// mapped onto the same buckets (ours): 1–2 characters ≈ 1 word, 3–6 ≈ 2–3, 7–16 ≈ 4–8, 17+ ≈ 9+.
package enum LengthBucket: String, Sendable, CaseIterable, Codable, Comparable {
    case one = "1"
    case twoToThree = "2-3"
    case fourToEight = "4-8"
    case ninePlus = "9+"

    package init(text: String, lang: LanguageCode) {
        if Self.isCountedInCharacters(lang) {
            let characters = text.filter { $0.isLetter || $0.isNumber }.count
            self = switch characters {
            case ...2: .one
            case 3...6: .twoToThree
            case 7...16: .fourToEight
            default: .ninePlus
            }
        } else {
            self = switch Self.wordCount(text) {
            case ...1: .one
            case 2...3: .twoToThree
            case 4...8: .fourToEight
            default: .ninePlus
            }
        }
    }

    /// Whether `lang` is Japanese or Chinese (its primary subtag `ja` or `zh`), read from the bytes of the
    /// identifier: this runs once per result, and comparing Substrings of Characters cost more than the rest.
    static func isCountedInCharacters(_ lang: LanguageCode) -> Bool {
        let bytes = lang.identifier.utf8
        guard bytes.count == 2 || (bytes.count > 2 && bytes[bytes.index(bytes.startIndex, offsetBy: 2)] == UInt8(ascii: "-")) else { return false }
        let first = bytes[bytes.startIndex], second = bytes[bytes.index(after: bytes.startIndex)]
        return (first == UInt8(ascii: "j") && second == UInt8(ascii: "a")) || (first == UInt8(ascii: "z") && second == UInt8(ascii: "h"))
    }

    /// Whitespace-separated tokens that contain a letter or digit (emoji and lone punctuation don't count).
    package static func wordCount(_ text: String) -> Int {
        SimpleText.wordCount(text) ?? characterWordCount(text)
    }

    /// The definition, walking the Characters (`SimpleText` answers the same, faster, where it can).
    static func characterWordCount(_ text: String) -> Int {
        // One pass, no substrings (this runs once per result): a token ends at whitespace and counts when
        // it held a letter or digit.
        var count = 0, inWord = false
        for character in text {
            if character.isWhitespace {
                if inWord { count += 1 }
                inWord = false
            } else if !inWord && (character.isLetter || character.isNumber) {
                inWord = true
            }
        }
        return inWord ? count + 1 : count
    }

    package static func < (lhs: LengthBucket, rhs: LengthBucket) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
