/// An immutable, heap-allocated array of integers with a stable address, so that the recognizer's inner
/// loops read tables through plain pointers without retain/release traffic.
///
/// `@unchecked Sendable` is sound because the memory is written only in `init` and freed only in `deinit`.
final class FixedBuffer<Element: FixedWidthInteger>: @unchecked Sendable {
    let pointer: UnsafePointer<Element>
    let count: Int

    init(_ elements: [Element]) {
        let storage = UnsafeMutablePointer<Element>.allocate(capacity: max(1, elements.count))
        elements.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { storage.initialize(from: base, count: elements.count) }
        }
        pointer = UnsafePointer(storage)
        count = elements.count
    }

    /// Copies `count` elements from raw (little-endian, possibly unaligned) bytes.
    init(copying bytes: UnsafeRawBufferPointer, count: Int) {
        let storage = UnsafeMutablePointer<Element>.allocate(capacity: max(1, count))
        if count > 0 { UnsafeMutableRawPointer(storage).copyMemory(from: bytes.baseAddress!, byteCount: count * MemoryLayout<Element>.stride) }
        pointer = UnsafePointer(storage)
        self.count = count
    }

    deinit {
        UnsafeMutablePointer(mutating: pointer).deallocate()
    }

    subscript(i: Int) -> Element { pointer[i] }

    var array: [Element] { Array(UnsafeBufferPointer(start: pointer, count: count)) }

    var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: pointer, count: count) }
}
