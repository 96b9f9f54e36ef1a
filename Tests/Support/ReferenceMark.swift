@testable import PolicySource

/// The position of a byte offset, walked byte by byte from the start: the straightforward
/// reading that `LineIndex` (binary searches, scalars counted a block at a time) is held to. A
/// line break is LF, CR or CRLF, as editors and every position policyc reports count them; a
/// column is a byte that starts a character (not a continuation byte); a BOM is no column.
package func referenceMark(_ offset: Int, in bytes: [UInt8]) -> Mark {
    var line = 1, column = 1
    var i = 0
    let end = min(offset, bytes.count)
    while i < end {
        let b = bytes[i]
        if b == 0x0A || (b == 0x0D && (i + 1 >= bytes.count || bytes[i + 1] != 0x0A)) {
            line += 1
            column = 1
        } else if b & 0xC0 != 0x80 && b != 0x0D {
            column += 1
        }
        i += 1
    }
    if line == 1 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) && offset >= 3 { column -= 1 }
    return Mark(line: line, column: column)
}
