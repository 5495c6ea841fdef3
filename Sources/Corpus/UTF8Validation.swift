import ByteIO

/// UTF-8 checked on bytes, with no `String` made: exactly the sequences that `String(validating:)`
/// accepts (Unicode's well-formed byte sequences, table 3-7: no overlong forms, no surrogates, nothing
/// past U+10FFFF), which `UTF8ValidationTests` checks against it.
enum UTF8Validation {
    static func isValid(_ bytes: ByteView, _ range: Range<Int>) -> Bool {
        var i = range.lowerBound
        let end = range.upperBound
        @inline(__always) func continuation(_ k: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            k < end && bytes[k] >= low && bytes[k] <= high
        }
        while i < end {
            let lead = bytes[i]
            if lead < 0x80 {
                i &+= 1
                continue
            }
            switch lead {
            case 0xC2...0xDF:
                guard continuation(i + 1) else { return false }
                i &+= 2
            case 0xE0...0xEF:
                let (low, high): (UInt8, UInt8) = lead == 0xE0 ? (0xA0, 0xBF) : lead == 0xED ? (0x80, 0x9F) : (0x80, 0xBF)
                guard continuation(i + 1, low, high), continuation(i + 2) else { return false }
                i &+= 3
            case 0xF0...0xF4:
                let (low, high): (UInt8, UInt8) = lead == 0xF0 ? (0x90, 0xBF) : lead == 0xF4 ? (0x80, 0x8F) : (0x80, 0xBF)
                guard continuation(i + 1, low, high), continuation(i + 2), continuation(i + 3) else { return false }
                i &+= 4
            default:
                return false
            }
        }
        return true
    }
}
