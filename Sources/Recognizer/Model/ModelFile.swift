import Foundation

/// The binary model format (little-endian; documented in docs/recognizer.md):
///
///     "LBRM" · u32 version · u32 n + JSON metadata (sorted keys) · f32 λ · f32 token cap
///     · u32 bias count · (u32 n + UTF-8 code · f32 per-word bias · f32 unlisted bias)… sorted by code
///       (version 2; absent in version 1)
///     · u32 script count
///     per script: u8 script · u32 language count · (u32 n + UTF-8 code)… · u32 alphabet count · u32 scalars…
///                 u32 width · for orders 1…5: u32 capacity · u32 keys[cap] · u8 logp[cap·width]
///                                                 · u8 bow[cap·width] (orders 1–4 only)
///                 u32 word capacity · u32 slots[cap]
///                 u32 form-set count · per set: u32 language row · u32 level · u32 capacity · u16 slots[cap]
///
/// Every table is written exactly as it sits in memory, so loading is a copy per array.
enum ModelFile {
    static let magic: [UInt8] = Array("LBRM".utf8)
    /// Version written; version 1 (no language biases) is still read.
    static let version: UInt32 = 2

    struct Contents {
        var scripts: [ScriptModel]
        var parameters: RecognitionParameters
        var metadata: ModelMetadata
    }

    static func encode(_ contents: Contents) throws -> Data {
        var w = ByteWriter()
        w.bytes(magic)
        w.u32(version)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = try encoder.encode(contents.metadata)
        w.u32(UInt32(json.count))
        w.bytes(Array(json))
        w.f32(contents.parameters.lambda)
        w.f32(contents.parameters.tokenEvidenceCap)
        let parameters = contents.parameters
        let biased = Set(parameters.languageBias.keys).union(parameters.unlistedBias.keys).sorted()
        w.u32(UInt32(biased.count))
        for code in biased {
            w.string(code)
            w.f32(parameters.languageBias[code] ?? 0)
            w.f32(parameters.unlistedBias[code] ?? 0)
        }
        w.u32(UInt32(contents.scripts.count))
        for s in contents.scripts {
            w.bytes([s.script.rawValue])
            w.u32(UInt32(s.languages.count))
            for code in s.languages { w.string(code) }
            w.array(s.alphabet)
            w.u32(UInt32(s.ngrams.width))
            for order in s.ngrams.orders {
                w.u32(UInt32(order.capacity))
                w.raw(order.keys.buffer)
                w.raw(order.logp.buffer)
                w.raw(order.bow.buffer)
            }
            w.u32(UInt32(s.words.capacity))
            w.raw(s.words.slots.buffer)
            w.u32(UInt32(s.words.formSets.count))
            for set in s.words.formSets {
                w.u32(UInt32(set.language))
                w.u32(set.level)
                w.u32(UInt32(set.capacity))
                w.raw(set.slots.buffer)
            }
        }
        return w.data
    }

    static func decode(_ data: Data, path: String) throws -> Contents {
        var r = ByteReader(data: data, path: path)
        guard try r.bytes(4) == magic else { throw ModelError.malformed(path: path, reason: "not a recognizer model") }
        let v = try r.u32()
        guard v == 1 || v == version else { throw ModelError.unsupportedVersion(path: path, version: v) }
        let json = try r.bytes(Int(try r.u32()))
        let metadata: ModelMetadata
        do {
            metadata = try JSONDecoder().decode(ModelMetadata.self, from: Data(json))
        } catch {
            throw ModelError.malformed(path: path, reason: "metadata: \(error)")
        }
        var parameters = RecognitionParameters(lambda: try r.f32(), tokenEvidenceCap: try r.f32())
        if v >= 2 {
            for _ in 0..<(try r.u32()) {
                let code = try r.string()
                parameters.languageBias[code] = try r.f32()
                parameters.unlistedBias[code] = try r.f32()
            }
        }
        var scripts: [ScriptModel] = []
        for _ in 0..<(try r.u32()) {
            guard let script = Script(rawValue: try r.bytes(1)[0]) else {
                throw ModelError.malformed(path: path, reason: "unknown script")
            }
            var languages: [String] = []
            for _ in 0..<(try r.u32()) { languages.append(try r.string()) }
            let alphabet: [UInt32] = try r.array(count: Int(try r.u32()))
            let width = Int(try r.u32())
            guard width == languages.count else { throw ModelError.malformed(path: path, reason: "n-gram table width") }
            var orders: [NGramTable.Order] = []
            for k in 1...NGramTable.maxOrder {
                let capacity = Int(try r.u32())
                guard capacity > 0, capacity < 1 << 30 else { throw ModelError.malformed(path: path, reason: "n-gram table") }
                let keys: FixedBuffer<UInt32> = try r.buffer(count: capacity)
                let logp: FixedBuffer<UInt8> = try r.buffer(count: capacity * width)
                let bow: FixedBuffer<UInt8> = try r.buffer(count: k < NGramTable.maxOrder ? capacity * width : 0)
                orders.append(NGramTable.Order(capacity: capacity, keys: keys, logp: logp, bow: bow))
            }
            let capacity = Int(try r.u32())
            guard capacity > 0, capacity < 1 << 30 else { throw ModelError.malformed(path: path, reason: "word table") }
            let slots: FixedBuffer<UInt32> = try r.buffer(count: capacity)
            var formSets: [FormSet] = []
            for _ in 0..<(try r.u32()) {
                let language = Int(try r.u32()), level = try r.u32(), count = Int(try r.u32())
                guard language < width, count > 0, count < 1 << 30 else { throw ModelError.malformed(path: path, reason: "form set") }
                formSets.append(FormSet(language: language, level: level, slots: try r.buffer(count: count)))
            }
            scripts.append(ScriptModel(
                script: script, languages: languages, alphabet: alphabet,
                ngrams: NGramTable(width: width, orders: orders), words: WordTable(slots: slots, formSets: formSets)))
        }
        guard r.isAtEnd else { throw ModelError.malformed(path: path, reason: "trailing bytes") }
        try check(parameters, scripts, path: path)
        return Contents(scripts: scripts, parameters: parameters, metadata: metadata)
    }

    /// Refuses a model whose structure is well-formed but cannot be used: a hash table without an empty slot (a probe
    /// for an absent key would never end) or a parameter that is not a finite number (every score would be NaN: `und`).
    static func check(_ parameters: RecognitionParameters, _ scripts: [ScriptModel], path: String) throws {
        let numbers = [("lambda", parameters.lambda), ("token evidence cap", parameters.tokenEvidenceCap)]
            + parameters.languageBias.sorted { $0.key < $1.key }.map { ("language bias of \($0.key)", $0.value) }
            + parameters.unlistedBias.sorted { $0.key < $1.key }.map { ("unlisted bias of \($0.key)", $0.value) }
        for (name, value) in numbers where !value.isFinite {
            throw ModelError.malformed(path: path, reason: "parameter \(name) is \(value), not a finite number")
        }
        for script in scripts {
            for (index, order) in script.ngrams.orders.enumerated() where !hasEmptySlot(order.keys) {
                throw ModelError.malformed(path: path, reason: "\(script.script) n-gram table of order \(index + 1) has no empty slot")
            }
            if !hasEmptySlot(script.words.slots) { throw ModelError.malformed(path: path, reason: "\(script.script) word table has no empty slot") }
            for set in script.words.formSets where !hasEmptySlot(set.slots) {
                throw ModelError.malformed(path: path, reason: "\(script.script) form set of language row \(set.language) has no empty slot")
            }
        }
    }

    /// Whether a table holds a 0 (empty) slot. At the load factor of 0.8 one is met within a few slots, so a good model
    /// costs almost nothing here and its mapped pages stay untouched.
    static func hasEmptySlot<T: FixedWidthInteger>(_ buffer: FixedBuffer<T>) -> Bool {
        let elements = UnsafeBufferPointer(start: buffer.pointer, count: buffer.count)
        return elements.contains(0)
    }
}

/// Appends little-endian values to a byte buffer.
struct ByteWriter {
    private(set) var data = Data()

    mutating func bytes(_ b: [UInt8]) { data.append(contentsOf: b) }
    mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
    mutating func f32(_ v: Float) { u32(v.bitPattern) }
    mutating func string(_ s: String) { u32(UInt32(s.utf8.count)); bytes(Array(s.utf8)) }
    mutating func array(_ a: [UInt32]) { u32(UInt32(a.count)); raw(a) }
    /// Writes an array's memory as is (the format is little-endian; so are all supported hosts).
    mutating func raw<T: FixedWidthInteger>(_ a: [T]) { a.withUnsafeBytes { data.append(contentsOf: $0) } }
    mutating func raw<T: FixedWidthInteger>(_ a: UnsafeBufferPointer<T>) { data.append(contentsOf: UnsafeRawBufferPointer(a)) }
}

/// Reads little-endian values from a model file, throwing `ModelError.malformed` past its end.
struct ByteReader {
    let data: Data
    let path: String
    private var offset = 0

    init(data: Data, path: String) {
        self.data = data
        self.path = path
    }

    var isAtEnd: Bool { offset == data.count }

    private mutating func take(_ n: Int) throws -> Range<Int> {
        guard n >= 0, offset + n <= data.count else {
            throw ModelError.malformed(path: path, reason: "truncated at byte \(offset)")
        }
        defer { offset += n }
        return (data.startIndex + offset)..<(data.startIndex + offset + n)
    }

    mutating func bytes(_ n: Int) throws -> [UInt8] { Array(data[try take(n)]) }
    mutating func u32() throws -> UInt32 {
        let range = try take(4)
        return data[range].withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) }
    }
    mutating func f32() throws -> Float { Float(bitPattern: try u32()) }
    mutating func string() throws -> String { String(decoding: try bytes(Int(try u32())), as: UTF8.self) }

    mutating func buffer<T: FixedWidthInteger>(count: Int) throws -> FixedBuffer<T> {
        let range = try take(count * MemoryLayout<T>.stride)
        if let inPlace = FixedBuffer<T>(inPlace: data, range: range, count: count) { return inPlace }
        return data[range].withUnsafeBytes { FixedBuffer(copying: $0, count: count) }
    }

    mutating func array<T: FixedWidthInteger>(count: Int) throws -> [T] {
        let range = try take(count * MemoryLayout<T>.stride)
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            data[range].withUnsafeBytes { src in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: src)
            }
            initialized = count
        }
    }
}
