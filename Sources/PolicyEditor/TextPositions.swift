import PolicySource
import PolicyCheck
import PolicyReport
import PolicyCodegen
import PolicySimulation
import PolicyReview

/// How an editor counts characters in a line (LSP `positionEncoding`, agreed at `initialize`).
public enum PositionEncoding: String, Sendable, Hashable {
    case utf8 = "utf-8"
    case utf16 = "utf-16"
}

/// A position as the Language Server Protocol has it: 0-based line, 0-based character offset in
/// the agreed code units.
public struct EditorPosition: Sendable, Hashable, Comparable {
    public var line: Int
    public var character: Int

    public init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    public static func < (a: EditorPosition, b: EditorPosition) -> Bool {
        (a.line, a.character) < (b.line, b.character)
    }
}

public struct EditorRange: Sendable, Hashable {
    public var start: EditorPosition
    public var end: EditorPosition

    public init(start: EditorPosition, end: EditorPosition) {
        self.start = start
        self.end = end
    }
}

/// The lines of one text, counted both ways, to move between our `Mark`s and an editor's
/// positions through byte offsets.
///
/// They disagree on two points. libyaml (and so every `Mark`) breaks lines at LF, CR, CRLF and
/// also NEL, LS and PS, counts columns in Unicode scalars, and starts line 1 after a byte order
/// mark. The protocol breaks lines at LF, CR and CRLF only, and counts UTF-8 bytes or UTF-16 code
/// units, a byte order mark in the text included. A byte offset means the same to both. Marks and
/// columns are the source layer's (`SourceMap`); only the protocol's lines are found here.
public struct TextLines: Sendable {
    public let bytes: [UInt8]
    /// Where each of the editor's lines starts (byte offsets, ascending; the first is 0).
    let editorStarts: [Int]
    /// libyaml's lines: the source layer's one line index (`SourceMap`), as the loader, the
    /// fixes and the reports count them.
    let yaml: SourceMap

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var editor: [Int] = [0]
        bytes.withUnsafeBufferPointer { b in
            let n = b.count
            var i = 0
            while i < n {
                let c = b[i]
                if c == 0x0A {
                    editor.append(i + 1)
                } else if c == 0x0D {
                    if i + 1 < n && b[i + 1] == 0x0A { i += 1 }
                    editor.append(i + 1)
                }
                i += 1
            }
        }
        editorStarts = editor
        yaml = SourceMap(bytes)
    }

    public init(_ text: String) {
        self.init(Array(text.utf8))
    }

    public var editorLineCount: Int { editorStarts.count }
    public var yamlLineCount: Int { yaml.lineCount }

    /// Where the editor's line `index` (0-based) ends, before its line break.
    func editorLineEnd(_ index: Int) -> Int {
        guard index + 1 < editorStarts.count else { return bytes.count }
        var end = editorStarts[index + 1] - 1
        if end > editorStarts[index] && bytes[end] == 0x0A && bytes[end - 1] == 0x0D { end -= 1 }
        return end
    }

    /// The libyaml line (0-based) that holds `offset`, with its start and end.
    public func yamlLine(at offset: Int) -> (index: Int, start: Int, end: Int) {
        let index = yaml.lineIndex(containing: offset)
        let (start, end) = yamlLine(index)
        return (index, start, end)
    }

    public func yamlLine(_ index: Int) -> (start: Int, end: Int) {
        yaml.bounds(ofLine: index + 1) ?? (bytes.count, bytes.count)
    }

    // MARK: marks

    /// The byte offset of a mark; a mark before the start of its line stands at the start, one
    /// past its end at the line's end, one past the last line at the end of the text.
    public func offset(of mark: Mark) -> Int {
        guard mark.line >= 1 else { return yamlLine(0).start }
        guard mark.line <= yamlLineCount else { return bytes.count }
        let (start, end) = yamlLine(mark.line - 1)
        guard mark.column > 1 else { return start }
        return yaml.offset(of: mark) ?? end
    }

    /// The mark of a byte offset.
    public func mark(at offset: Int) -> Mark {
        yaml.mark(at: offset)
    }

    // MARK: editor positions

    /// The editor's position of a byte offset.
    public func position(at offset: Int, _ encoding: PositionEncoding) -> EditorPosition {
        let offset = max(0, min(offset, bytes.count))
        let line = Self.lastStart(atOrBefore: offset, in: editorStarts)
        let start = editorStarts[line]
        let end = min(offset, editorLineEnd(line))
        switch encoding {
        case .utf8: return EditorPosition(line: line, character: end - start)
        case .utf16: return EditorPosition(line: line, character: SourceMap.utf16Count(bytes, start..<end))
        }
    }

    /// The byte offset of an editor's position. As the protocol says, a character past the end of
    /// its line stands at the line's end; a line past the last stands at the end of the text, a
    /// negative one at the start. A position inside a character (the middle of a surrogate pair or
    /// of a UTF-8 sequence) stands at that character.
    public func offset(of position: EditorPosition, _ encoding: PositionEncoding) -> Int {
        guard position.line >= 0 else { return 0 }
        guard position.line < editorStarts.count else { return bytes.count }
        let start = editorStarts[position.line]
        let end = editorLineEnd(position.line)
        let wanted = max(0, position.character)
        switch encoding {
        case .utf8:
            // Compared before adding: a character of Int.max must not overflow.
            return SourceMap.characterStart(wanted >= end - start ? end : start + wanted, in: bytes, notBefore: start)
        case .utf16: return SourceMap.offset(afterUTF16: wanted, in: bytes, start..<end)
        }
    }

    public func position(of mark: Mark, _ encoding: PositionEncoding) -> EditorPosition {
        position(at: offset(of: mark), encoding)
    }

    /// The editor's range of a span; the end is never before the start.
    public func range(of span: Span, _ encoding: PositionEncoding) -> EditorRange {
        let start = offset(of: span.start)
        let end = max(start, offset(of: span.end))
        return EditorRange(start: position(at: start, encoding), end: position(at: end, encoding))
    }

    // MARK: helpers

    /// The index of the last element of `starts` (ascending, first ≤ every offset asked) that is
    /// at most `offset`.
    static func lastStart(atOrBefore offset: Int, in starts: [Int]) -> Int {
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}
