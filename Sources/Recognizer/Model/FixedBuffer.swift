import Foundation

/// An immutable array of integers with a stable address, so that the recognizer's inner loops read
/// tables through plain pointers without retain/release traffic: in memory of its own, or in place in a
/// model file's bytes (mapped into memory: pages are read as the recognizer first touches them instead of
/// 42 MB copied at every load).
///
/// `@unchecked Sendable` is sound because the memory is written only in `init` and freed only in `deinit`
/// (in place, it is the bytes of an immutable `Data` this buffer keeps).
final class FixedBuffer<Element: FixedWidthInteger>: @unchecked Sendable {
    let pointer: UnsafePointer<Element>
    let count: Int
    /// The bytes `pointer` points into when the elements are read in place; nil when they are owned.
    private let source: Data?

    init(_ elements: [Element]) {
        let storage = UnsafeMutablePointer<Element>.allocate(capacity: max(1, elements.count))
        elements.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { storage.initialize(from: base, count: elements.count) }
        }
        pointer = UnsafePointer(storage)
        count = elements.count
        source = nil
    }

    /// Copies `count` elements from raw (little-endian, possibly unaligned) bytes.
    init(copying bytes: UnsafeRawBufferPointer, count: Int) {
        let storage = UnsafeMutablePointer<Element>.allocate(capacity: max(1, count))
        if count > 0 { UnsafeMutableRawPointer(storage).copyMemory(from: bytes.baseAddress!, byteCount: count * MemoryLayout<Element>.stride) }
        pointer = UnsafePointer(storage)
        self.count = count
        source = nil
    }

    /// The `count` elements at `range` of `data`, read where they are: when they are aligned for
    /// `Element` and the machine is little-endian (the file's order); nil otherwise (copy them instead).
    /// `data` is kept (a mapped file's mapping with it). Data of a few bytes may be stored inline and
    /// move, so only data of at least a page is read in place.
    init?(inPlace data: Data, range: Range<Data.Index>, count: Int) {
        guard (1 as UInt16).littleEndian == 1, data.count >= 4096, range.count == count * MemoryLayout<Element>.stride,
              let address = data.withUnsafeBytes({ $0.baseAddress.map { $0 + (range.lowerBound - data.startIndex) } }),
              Int(bitPattern: address) % MemoryLayout<Element>.alignment == 0 else { return nil }
        pointer = address.assumingMemoryBound(to: Element.self)
        self.count = count
        source = data
    }

    deinit {
        if source == nil { UnsafeMutablePointer(mutating: pointer).deallocate() }
    }

    subscript(i: Int) -> Element { pointer[i] }

    var array: [Element] { Array(UnsafeBufferPointer(start: pointer, count: count)) }

    var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: pointer, count: count) }
}
