/// The writing system of a letter, the first routing step of recognition.
///
/// Scripts used by exactly one language of the model route straight to it (Hangul → ko, Greek → el, …);
/// Latin, Cyrillic and CJK (Han and kana together, so Japanese kanji and kana stay in one token) have a
/// trained per-script model. Our choice: Arabic routes to `ar` and Devanagari to `hi`, although other
/// languages share those scripts — the harness has no corpus for them.
public enum Script: UInt8, Sendable, CaseIterable, Comparable {
    case latin, cyrillic, cjk, hangul, greek, hebrew, arabic, devanagari, thai, georgian, armenian

    public static func < (lhs: Script, rhs: Script) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The single language of a script without a trained model, or nil for the trained scripts.
    public var singleLanguage: String? {
        switch self {
        case .latin, .cyrillic, .cjk: nil
        case .hangul: "ko"
        case .greek: "el"
        case .hebrew: "he"
        case .arabic: "ar"
        case .devanagari: "hi"
        case .thai: "th"
        case .georgian: "ka"
        case .armenian: "hy"
        }
    }

    /// The script of a letter, or nil when the scalar is not a letter of a routed script.
    @inline(__always)
    static func of(_ v: UInt32) -> Script? {
        if v < 0x80 {
            return (v | 0x20) >= 0x61 && (v | 0x20) <= 0x7A ? .latin : nil
        }
        switch v {
        case 0x00C0...0x024F where v != 0xD7 && v != 0xF7: return .latin
        case 0x00AA, 0x00BA, 0x1E00...0x1EFF: return .latin
        case 0x0370...0x03FF, 0x1F00...0x1FFF: return v == 0x037E || v == 0x0387 ? nil : .greek
        case 0x0400...0x0481, 0x048A...0x052F: return .cyrillic
        case 0x05D0...0x05EA: return .hebrew
        case 0x0620...0x064A, 0x066E...0x06D3, 0x06FA...0x06FF: return .arabic
        case 0x0900...0x097F: return .devanagari
        case 0x0E01...0x0E3A, 0x0E40...0x0E4E: return .thai
        case 0x10A0...0x10FF: return .georgian
        case 0x0531...0x0587: return .armenian
        case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7A3: return .hangul
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,
             0x20000...0x2FA1F:
            return v == 0x30FB ? nil : .cjk
        default: return nil
        }
    }

    /// Whether a scalar continues a word of this script without being a letter (combining marks).
    @inline(__always)
    static func isWordMark(_ v: UInt32) -> Bool {
        (0x0300...0x036F).contains(v) || (0x0483...0x0487).contains(v) || (0x0900...0x0903).contains(v)
            || (0x093A...0x094F).contains(v) || (0x0E31...0x0E3A).contains(v) || (0x0E47...0x0E4E).contains(v)
            || (0x064B...0x065F).contains(v) || (0x05B0...0x05C7).contains(v)
    }
}
