/// Walks the lines of a byte buffer; a line excludes its `\n` and any trailing `\r`.
///
/// It borrows the bytes, so it must stay inside the `withUnsafeBytes` closure that produced them.
package struct LineCursor {
    package let bytes: UnsafeRawBufferPointer
    package private(set) var offset = 0

    package init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    package mutating func skipWhitespace() {
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    }

    package func peek() -> Slice<UnsafeRawBufferPointer>? {
        guard offset < bytes.count else { return nil }
        let newline = bytes[offset...].firstIndex(of: 0x0A) ?? bytes.count
        var lineEnd = newline
        if lineEnd > offset, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        return bytes[offset..<lineEnd]
    }

    package mutating func next() -> Slice<UnsafeRawBufferPointer>? {
        guard let line = peek() else { return nil }
        let newline = bytes[offset...].firstIndex(of: 0x0A) ?? bytes.count
        offset = Swift.min(newline + 1, bytes.count)
        return line
    }
}
